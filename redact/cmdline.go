package redact

import "strings"

// Credentials passed on command lines: curl -u user:pass, mysql -pPASS,
// sshpass -p PASS, docker login -p PASS, redis-cli -a PASS, aws configure
// set aws_secret_access_key KEY, htpasswd -b file user PASS, and long
// options such as --password=PASS or --token TOKEN for any program.
//
// The same option means different things to different programs (-p is a
// port for ssh and docker run, a prompt for mysql without a value; -u is a
// user for docker run), so options are read in the context of the program
// whose name comes before them in the same simple command: the scan anchors
// on program names, reads the shell words that follow up to a command
// separator or line break, and switches context at each known program name
// (sudo mysql, kubectl exec db -- mysql, env X=1 curl). Outside a known
// program only generic secret long options count, and a value given as the
// next word must also look like a credential, since prose mentions options
// too ("pass --token to the CLI").

// optKind says where the secret is in an option's value.
type optKind uint8

const (
	optSecret     optKind = iota // the whole value
	optUserPass                  // user:secret, the part after the first ':'
	optUserPct                   // user%secret, the part after the first '%'
	optPassSource                // pass:secret (openssl); env:, file:, fd: and stdin are references
	optFlag                      // no value: psql --password only forces a prompt
	optArg                       // a value that is not a secret (htpasswd -C 10)
)

// optSpec describes one option of a program.
type optSpec struct {
	kind optKind
	// next means the value may be the following word. Without it only an
	// attached value counts (-pSECRET, --password=SECRET): mysql -p alone
	// prompts, and the word after it is the database.
	next bool
}

// program is what the scan knows about one command-line program.
type program struct {
	opts map[string]optSpec
	// sub, when set, is a subcommand that must come first (docker login):
	// docker run -p 8080:80 publishes a port.
	sub string
	// cluster lists flags without a value that may share a word with a
	// secret option before it (curl -su user:pass).
	cluster string
	// positional, when set, reports whether the next non-option word is a
	// secret, and what it holds.
	positional func(st *cmdState) (name string, secret bool)
}

var (
	curlOpts = map[string]optSpec{
		"-u": {optUserPass, true}, "--user": {optUserPass, true},
		"-U": {optUserPass, true}, "--proxy-user": {optUserPass, true},
		"--oauth2-bearer": {optSecret, true}, "--pass": {optSecret, true},
	}
	wgetOpts = map[string]optSpec{
		"--password": {optSecret, true}, "--http-password": {optSecret, true}, "--http-passwd": {optSecret, true},
		"--ftp-password": {optSecret, true}, "--proxy-password": {optSecret, true},
	}
	mysqlOpts   = map[string]optSpec{"-p": {optSecret, false}, "--password": {optSecret, false}}
	sshpassOpts = map[string]optSpec{"-p": {optSecret, true}}
	loginOpts   = map[string]optSpec{"-p": {optSecret, true}, "--password": {optSecret, true}}
	redisOpts   = map[string]optSpec{"-a": {optSecret, true}, "--pass": {optSecret, true}}
	opensslOpts = map[string]optSpec{
		"-pass": {optPassSource, true}, "-passin": {optPassSource, true}, "-passout": {optPassSource, true},
		"-k": {optSecret, true},
	}
	keygenOpts = map[string]optSpec{"-N": {optSecret, true}, "-P": {optSecret, true}}
	smbOpts    = map[string]optSpec{"-U": {optUserPct, true}, "--user": {optUserPct, true}}
	pgOpts     = map[string]optSpec{"-W": {optFlag, false}, "--password": {optFlag, false}}
	mongoOpts  = map[string]optSpec{"-p": {optSecret, true}, "--password": {optSecret, true}}
	ldapOpts   = map[string]optSpec{"-w": {optSecret, true}}
	keytool    = map[string]optSpec{
		"-storepass": {optSecret, true}, "-keypass": {optSecret, true},
		"-srcstorepass": {optSecret, true}, "-deststorepass": {optSecret, true},
		"-srckeypass": {optSecret, true}, "-destkeypass": {optSecret, true},
	}
	capitalP  = map[string]optSpec{"-P": {optSecret, true}}
	sevenZipP = map[string]optSpec{"-p": {optSecret, false}}
)

// programs maps program names to what the scan knows about them.
var programs = map[string]*program{}

func init() {
	add := func(p *program, names ...string) {
		for _, n := range names {
			programs[n] = p
		}
	}
	add(&program{opts: curlOpts, cluster: "sSkLvfiIgGq"}, "curl")
	add(&program{opts: wgetOpts}, "wget")
	add(&program{opts: mysqlOpts}, "mysql", "mariadb", "mysqldump", "mariadb-dump", "mysqladmin",
		"mariadb-admin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlpump", "mysqlsh", "mysqlbinlog")
	add(&program{opts: sshpassOpts}, "sshpass")
	add(&program{opts: loginOpts, sub: "login"}, "docker", "podman", "nerdctl", "buildah", "skopeo",
		"helm", "oras", "crane", "finch")
	add(&program{opts: redisOpts}, "redis-cli", "valkey-cli", "keydb-cli")
	add(&program{opts: opensslOpts}, "openssl")
	add(&program{opts: keygenOpts}, "ssh-keygen")
	add(&program{opts: smbOpts}, "smbclient", "rpcclient", "smbcacls", "smbget")
	add(&program{opts: pgOpts}, "psql", "pg_dump", "pg_dumpall", "pg_restore", "pg_basebackup",
		"createdb", "dropdb", "createuser", "dropuser", "vacuumdb", "reindexdb", "clusterdb")
	add(&program{opts: mongoOpts}, "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport")
	add(&program{opts: ldapOpts}, "ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldappasswd", "ldapwhoami")
	add(&program{opts: keytool}, "keytool")
	add(&program{opts: capitalP}, "zip", "unzip", "mosquitto_pub", "mosquitto_sub", "sqlcmd", "bcp")
	add(&program{opts: sevenZipP}, "7z", "7za", "7zz", "7zr")
	add(&program{opts: map[string]optSpec{}, positional: awsPositional}, "aws")
	add(&program{opts: map[string]optSpec{"-C": {optArg, true}, "-r": {optArg, true}}, positional: htpasswdPositional}, "htpasswd")
	for name := range programs {
		maxProgramName = max(maxProgramName, len(name))
		programStarts[name[0]][name[1]>>6] |= 1 << (name[1] & 63)
	}
}

// cmdLimit bounds how far a command's words are read after its name.
const cmdLimit = 4096

// cmdState is what the scan remembers about the program whose options it
// is reading.
type cmdState struct {
	prog       *program
	subSeen    bool
	positional []string // non-option words, unquoted
	flags      string   // short flags seen so far (htpasswd -b)
}

// scanCommands is the command-line rule's scan. It visits each word that
// starts at a boundary once, with table lookups only, so its cost is linear
// in the text whatever the number of programs it knows.
func scanCommands(s string, out []finding, first bool) []finding {
	for i := 0; i < len(s); {
		if i > 0 && !cmdBoundaryByte[s[i-1]] {
			i++
			continue
		}
		j := i
		for j < len(s) && nameByte[s[j]] {
			j++
		}
		if j == i {
			i++
			continue
		}
		n := len(out)
		var end int
		if p := programAt(s, i, j); p != nil {
			out, end = scanProgram(s, j, p, out, first)
		} else if s[i] == '-' && j-i > 2 && s[i+1] == '-' && s[i+2] != '-' {
			out, end = scanLongOption(s, i, out)
		} else {
			i = j
			continue
		}
		if first && len(out) > n {
			return out
		}
		i = max(end, j)
	}
	return out
}

// programAt returns the program named by s[i:j] when the name is followed
// by a blank (a program name alone has no arguments to read).
func programAt(s string, i, j int) *program {
	if j-i < 2 || j-i > maxProgramName || j == len(s) || (s[j] != ' ' && s[j] != '\t') ||
		programStarts[s[i]][s[i+1]>>6]&(1<<(s[i+1]&63)) == 0 {
		return nil
	}
	return programs[s[i:j]]
}

// scanLongOption reads a long option outside any program we know, and the
// word after it, and returns where it stopped.
func scanLongOption(s string, i int, out []finding) ([]finding, int) {
	w, ok := nextWord(s, i, min(len(s), i+cmdLimit))
	if !ok {
		return out, i + 1
	}
	next, hasNext := nextWord(s, w.end, min(len(s), w.end+cmdLimit))
	f, used, found := optionSecret(s, w, next, hasNext, nil)
	if found {
		out = append(out, f)
	}
	if used {
		return out, next.end
	}
	return out, w.end
}

var (
	// cmdBoundaryByte holds the bytes that may come right before a program
	// name or an option: blanks, separators, quotes and a path's slash.
	cmdBoundaryByte = byteSet(" \t\r\n;|&(`'\"/=")
	// nameByte holds the bytes of program names and options.
	nameByte = byteSet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
)

var (
	// maxProgramName is the length of the longest name in programs.
	maxProgramName int
	// programStarts is a bit set of the first two bytes of program names,
	// which spares most words a map lookup.
	programStarts [256][4]uint64
)

// scanProgram reads the words after a program name up to the end of the
// simple command, appending findings; it returns where the command ended.
func scanProgram(s string, from int, p *program, out []finding, first bool) ([]finding, int) {
	limit := min(len(s), from+cmdLimit)
	st := &cmdState{prog: p}
	i := from
	for {
		w, ok := nextWord(s, i, limit)
		if !ok {
			return out, w.end
		}
		i = w.end
		word := unquoted(s, w)
		if q := programs[baseName(word)]; q != nil && !strings.HasPrefix(word, "-") {
			st = &cmdState{prog: q}
			continue
		}
		if !strings.HasPrefix(word, "-") || word == "-" || word == "--" {
			if st.prog.sub != "" && !st.subSeen {
				st.subSeen = word == st.prog.sub
				continue
			}
			if st.prog.positional != nil {
				if name, secret := st.prog.positional(st); secret {
					if f, ok := valueFinding(s, w, optSecret, name); ok {
						out = append(out, f)
						if first {
							return out, w.end
						}
					}
				}
			}
			st.positional = append(st.positional, word)
			continue
		}
		if !strings.HasPrefix(word, "--") {
			st.flags += word[1:]
		}
		p := st.prog
		if p.sub != "" && !st.subSeen {
			p = nil // docker run -p 8080:80: not a login option
		}
		next, hasNext := nextWord(s, w.end, limit)
		f, used, found := optionSecret(s, w, next, hasNext, p)
		if found {
			out = append(out, f)
			if first {
				return out, w.end
			}
		}
		if used {
			i = next.end
		}
	}
}

// optionSecret looks at the option word w (and the word after it, next,
// when hasNext) in the context of program p (nil: none) and returns the
// secret it finds, if any, and whether next was consumed as its value.
func optionSecret(s string, w, next cmdWord, hasNext bool, p *program) (f finding, used, found bool) {
	word := s[w.start:w.end]
	// --name=value
	if strings.HasPrefix(word, "--") {
		if eq := strings.IndexByte(word, '='); eq > 0 {
			name := word[:eq]
			spec, _, ok := lookupOpt(p, name)
			if !ok {
				return finding{}, false, false
			}
			f, found = valueFinding(s, cmdWord{w.start + eq + 1, w.end}, spec.kind, name)
			return f, false, found
		}
	}
	if spec, own, ok := lookupOpt(p, word); ok {
		if spec.kind == optFlag || !spec.next || !hasNext || isOptionWord(s, next) {
			return finding{}, false, false
		}
		if spec.kind == optArg {
			return finding{}, true, false
		}
		if !own && !credentialLike(unquoted(s, next)) {
			return finding{}, false, false // "pass --token to the CLI"
		}
		f, found = valueFinding(s, next, spec.kind, word)
		return f, true, found
	}
	if p == nil || strings.HasPrefix(word, "--") {
		return finding{}, false, false
	}
	// -pSECRET, or a cluster of flags ending in a secret option (-su user:pass).
	body := word[1:]
	for k := 0; k < len(body); k++ {
		spec, ok := p.opts["-"+body[k:k+1]]
		if ok && spec.kind != optFlag && spec.kind != optArg {
			if k+1 < len(body) {
				f, found = valueFinding(s, cmdWord{w.start + 1 + k + 1, w.end}, spec.kind, "")
				return f, false, found
			}
			if !spec.next || !hasNext || isOptionWord(s, next) {
				return finding{}, false, false
			}
			f, found = valueFinding(s, next, spec.kind, "")
			return f, true, found
		}
		if strings.IndexByte(p.cluster, body[k]) < 0 {
			return finding{}, false, false
		}
	}
	return finding{}, false, false
}

// lookupOpt finds an option among p's (own is then set), then among the
// generic secret long options.
func lookupOpt(p *program, name string) (spec optSpec, own, ok bool) {
	if p != nil {
		if spec, ok := p.opts[name]; ok {
			return spec, true, true
		}
	}
	spec, ok = genericOpt(name)
	return spec, false, ok
}

// genericSecretEndings are how the names of long options that take a secret
// end, for any program: --password, --db-password, --api-key, --token,
// --github-token, --client-secret.
var genericSecretEndings = []string{"password", "passwd", "passphrase", "token", "secret", "api-key",
	"apikey", "api_key", "secret-key", "secret_key", "secret-access-key", "private-key"}

// genericOpt reports long options that take a secret whatever the program.
// --password-stdin, --token-file and --no-password end otherwise or start
// with no-/ask-, and take no secret.
func genericOpt(name string) (optSpec, bool) {
	if !strings.HasPrefix(name, "--") {
		return optSpec{}, false
	}
	n := strings.ToLower(name[2:])
	if n == "pass" {
		return optSpec{optSecret, true}, true
	}
	if strings.HasPrefix(n, "no-") || strings.HasPrefix(n, "ask-") {
		return optSpec{}, false
	}
	for _, e := range genericSecretEndings {
		if k := len(n) - len(e); k >= 0 && n[k:] == e && (k == 0 || n[k-1] == '-' || n[k-1] == '_') {
			return optSpec{optSecret, true}, true
		}
	}
	return optSpec{}, false
}

// credentialLike reports whether a value given as a separate word after a
// generic option looks like a credential rather than the next word of a
// sentence.
func credentialLike(v string) bool {
	return bareSecret(v) || (len(v) >= 16 && mixedToken(v))
}

// valueFinding returns the replacement of the secret in the value word w,
// located as kind says; name, when set, names the marker.
func valueFinding(s string, w cmdWord, kind optKind, name string) (finding, bool) {
	start, end := unquoteSpan(s, w)
	v := s[start:end]
	markerKind := "password"
	if n := strings.TrimLeft(name, "-"); len(n) > 1 && kind == optSecret {
		markerKind = kindForKey(n) // --api-key, --token, aws_session_token
	}
	switch kind {
	case optUserPass, optUserPct:
		sep := byte(':')
		if kind == optUserPct {
			sep = '%'
		}
		i := strings.IndexByte(v, sep)
		if i < 0 {
			return finding{}, false
		}
		start += i + 1
	case optPassSource:
		rest, ok := strings.CutPrefix(v, "pass:")
		if !ok {
			return finding{}, false // env:VAR, file:path, fd:N, stdin
		}
		start += len(v) - len(rest)
	case optFlag, optArg:
		return finding{}, false
	}
	v = s[start:end]
	if v == "" || isReference(v) || isMask(v) || isMarkerStart(v) || isPlainWord(v) {
		return finding{}, false
	}
	return finding{start, end, marker(markerKind)}, true
}

// awsPositional finds the value of aws configure set for a secret setting:
// aws configure set [--profile p] aws_secret_access_key VALUE. The word
// before the value is the setting's name.
func awsPositional(st *cmdState) (string, bool) {
	pos := st.positional
	c := 0
	for c < len(pos) && pos[c] != "configure" {
		c++
	}
	if c+1 >= len(pos) || pos[c+1] != "set" || len(pos) < c+3 {
		return "", false
	}
	key := pos[len(pos)-1]
	return key, awsSecretKey(key)
}

// awsSecretKey reports aws configure settings that hold secrets, with or
// without a profile prefix (default.aws_secret_access_key).
func awsSecretKey(key string) bool {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		key = key[i+1:]
	}
	switch key {
	case "aws_secret_access_key", "aws_session_token", "aws_security_token":
		return true
	}
	return false
}

// htpasswdPositional finds the password of htpasswd -b [-c] file user
// password (or -nb user password), the batch mode that takes it on the
// command line.
func htpasswdPositional(st *cmdState) (string, bool) {
	if !strings.Contains(st.flags, "b") {
		return "", false
	}
	want := 2
	if strings.Contains(st.flags, "n") {
		want = 1
	}
	return "password", len(st.positional) == want
}

// cmdWord is one shell word, s[start:end], quotes included.
type cmdWord struct{ start, end int }

// wordStop holds the bytes that end a word outside quotes; those other
// than blanks also end the simple command.
var wordStop = byteSet(" \t\r\n;|&()`")

// nextWord skips blanks from i (and backslash line continuations, and the
// lone backslash a command joined onto one line leaves) and returns the word
// there. ok is false at the end of the simple command: a separator, a line
// break or limit; the word's end is then where the scan stopped.
func nextWord(s string, i, limit int) (cmdWord, bool) {
	for i < limit {
		c := s[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if c == '\\' && i+1 < limit && (s[i+1] == '\n' || s[i+1] == ' ' || s[i+1] == '\t') {
			i += 2
			continue
		}
		if c == '\\' && i+2 < limit && s[i+1] == '\r' && s[i+2] == '\n' {
			i += 3
			continue
		}
		break
	}
	if i >= limit || wordStop[s[i]] {
		return cmdWord{i, i}, false
	}
	start := i
	for i < limit {
		switch c := s[i]; {
		case c == '\'' || c == '"':
			j := i + 1
			for j < limit && s[j] != c && s[j] != '\n' {
				if c == '"' && s[j] == '\\' && j+1 < limit && s[j+1] != '\n' {
					j++
				}
				j++
			}
			if j < limit && s[j] == c {
				i = j + 1
			} else {
				i = j // unclosed: the word runs to the end of the line
			}
		case c == '\\' && i+1 < limit && s[i+1] != '\n' && s[i+1] != '\r':
			i += 2
		case wordStop[c]:
			return cmdWord{start, i}, true
		default:
			i++
		}
	}
	return cmdWord{start, min(i, limit)}, true
}

// isOptionWord reports a word that is itself an option, not a value.
func isOptionWord(s string, w cmdWord) bool {
	return w.end-w.start > 1 && s[w.start] == '-'
}

// unquoteSpan returns the span of w without one pair of enclosing quotes.
func unquoteSpan(s string, w cmdWord) (int, int) {
	if w.end-w.start >= 2 && (s[w.start] == '\'' || s[w.start] == '"') && s[w.end-1] == s[w.start] {
		return w.start + 1, w.end - 1
	}
	return w.start, w.end
}

// unquoted returns w's text without enclosing quotes.
func unquoted(s string, w cmdWord) string {
	a, b := unquoteSpan(s, w)
	return s[a:b]
}

// baseName returns the last element of a program path (/usr/bin/mysql).
func baseName(word string) string {
	if i := strings.LastIndexByte(word, '/'); i >= 0 {
		return word[i+1:]
	}
	return word
}
