package extract

import (
	"slices"
	"strings"
	"sync"
)

// Tool categories. Each maps to one predicate (categoryPredicate), so every way
// of saying which package manager a project uses lands on the same predicate.
const (
	catPackageManager = "package_manager"
	catRuntime        = "runtime"
	catLanguage       = "language"
	catTestRunner     = "test_runner"
	catE2E            = "e2e"
	catDeploy         = "deploy"
	catDatabase       = "database"
	catCache          = "cache"
	catCI             = "ci"
	catEditor         = "editor"
	catFormatter      = "formatter"
	catLinter         = "linter"
	catCloud          = "cloud"
	catFramework      = "framework"
	catBundler        = "bundler"
	catShell          = "shell"
	catOS             = "os"
)

var categoryPredicate = sync.OnceValue(func() map[string]string {
	return map[string]string{
		catPackageManager: "uses_package_manager",
		catRuntime:        "uses_runtime",
		catLanguage:       "uses_language",
		catTestRunner:     "uses_test_runner",
		catE2E:            "uses_e2e_framework",
		catDeploy:         "deploys_with",
		catDatabase:       "uses_database",
		catCache:          "uses_cache",
		catCI:             "uses_ci",
		catEditor:         "uses_editor",
		catFormatter:      "uses_formatter",
		catLinter:         "uses_linter",
		catCloud:          "uses_cloud",
		catFramework:      "uses_framework",
		catBundler:        "uses_bundler",
		catShell:          "uses_shell",
		catOS:             "uses_os",
	}
})

// tool is one entry of the taxonomy. cats lists the categories the tool can
// fill, the usual reading first: bun is a package manager unless the sentence
// pairs it with node or deno, AWS is a cloud unless something is deployed to it.
type tool struct {
	name    string
	display string
	cats    []string
	aliases []string
}

func cats(c ...string) []string { return c }

var toolTable = []tool{
	{"npm", "npm", cats(catPackageManager), nil},
	{"pnpm", "pnpm", cats(catPackageManager), nil},
	{"yarn", "Yarn", cats(catPackageManager), []string{"yarn berry", "yarn classic"}},
	{"bun", "Bun", cats(catPackageManager, catRuntime), []string{"bun.sh", "bunjs"}},
	{"pip", "pip", cats(catPackageManager), nil},
	{"poetry", "Poetry", cats(catPackageManager), nil},
	{"uv", "uv", cats(catPackageManager), nil},
	{"pipenv", "Pipenv", cats(catPackageManager), nil},
	{"conda", "conda", cats(catPackageManager), []string{"anaconda", "miniconda"}},
	{"composer", "Composer", cats(catPackageManager), nil},
	{"bundler", "Bundler", cats(catPackageManager), nil},

	{"node", "Node.js", cats(catRuntime), []string{"node.js", "nodejs", "node js"}},
	{"deno", "Deno", cats(catRuntime), nil},

	{"go", "Go", cats(catLanguage), []string{"golang"}},
	{"rust", "Rust", cats(catLanguage), nil},
	{"python", "Python", cats(catLanguage), []string{"py"}},
	{"typescript", "TypeScript", cats(catLanguage), []string{"ts"}},
	{"javascript", "JavaScript", cats(catLanguage), []string{"js", "vanilla js"}},
	{"java", "Java", cats(catLanguage), nil},
	{"kotlin", "Kotlin", cats(catLanguage), nil},
	{"ruby", "Ruby", cats(catLanguage), nil},
	{"elixir", "Elixir", cats(catLanguage), nil},
	{"php", "PHP", cats(catLanguage), nil},
	{"swift", "Swift", cats(catLanguage), nil},
	{"scala", "Scala", cats(catLanguage), nil},
	{"c#", "C#", cats(catLanguage), []string{"csharp", "c sharp"}},
	{"c++", "C++", cats(catLanguage), []string{"cpp"}},
	{"zig", "Zig", cats(catLanguage), nil},
	{"haskell", "Haskell", cats(catLanguage), nil},
	{"ocaml", "OCaml", cats(catLanguage), nil},
	{"clojure", "Clojure", cats(catLanguage), nil},
	{"dart", "Dart", cats(catLanguage), nil},
	{"lua", "Lua", cats(catLanguage), nil},

	{"jest", "Jest", cats(catTestRunner), nil},
	{"vitest", "Vitest", cats(catTestRunner), nil},
	{"mocha", "Mocha", cats(catTestRunner), nil},
	{"pytest", "pytest", cats(catTestRunner), []string{"py.test"}},
	{"rspec", "RSpec", cats(catTestRunner), nil},
	{"go test", "go test", cats(catTestRunner), nil},
	{"ava", "AVA", cats(catTestRunner), nil},
	{"jasmine", "Jasmine", cats(catTestRunner), nil},
	{"junit", "JUnit", cats(catTestRunner), []string{"junit5", "junit 5"}},
	{"minitest", "Minitest", cats(catTestRunner), nil},
	{"playwright", "Playwright", cats(catE2E), nil},
	{"cypress", "Cypress", cats(catE2E), nil},
	{"selenium", "Selenium", cats(catE2E), nil},
	{"puppeteer", "Puppeteer", cats(catE2E), nil},

	{"fly.io", "Fly.io", cats(catDeploy), []string{"fly", "flyio", "fly io"}},
	{"vercel", "Vercel", cats(catDeploy), nil},
	{"heroku", "Heroku", cats(catDeploy), nil},
	{"render", "Render", cats(catDeploy), []string{"render.com"}},
	{"netlify", "Netlify", cats(catDeploy), nil},
	{"railway", "Railway", cats(catDeploy), nil},
	{"kubernetes", "Kubernetes", cats(catDeploy), []string{"k8s", "kube", "eks", "gke", "aks"}},
	{"cloud run", "Cloud Run", cats(catDeploy), []string{"google cloud run"}},
	{"app engine", "App Engine", cats(catDeploy), []string{"google app engine"}},
	{"github pages", "GitHub Pages", cats(catDeploy), nil},
	{"lambda", "AWS Lambda", cats(catDeploy), []string{"aws lambda"}},
	{"ecs", "AWS ECS", cats(catDeploy), []string{"aws ecs", "fargate"}},
	{"aws", "AWS", cats(catCloud, catDeploy), []string{"amazon web services"}},
	{"gcp", "GCP", cats(catCloud, catDeploy), []string{"google cloud", "google cloud platform", "gcloud"}},
	{"azure", "Azure", cats(catCloud, catDeploy), []string{"microsoft azure"}},
	{"cloudflare", "Cloudflare", cats(catCloud, catDeploy), []string{"cloudflare workers", "cloudflare pages"}},
	{"digitalocean", "DigitalOcean", cats(catCloud, catDeploy), []string{"digital ocean"}},
	{"hetzner", "Hetzner", cats(catCloud, catDeploy), nil},

	{"postgres", "PostgreSQL", cats(catDatabase), []string{"postgresql", "pg", "postgre"}},
	{"mysql", "MySQL", cats(catDatabase), nil},
	{"mariadb", "MariaDB", cats(catDatabase), nil},
	{"sqlite", "SQLite", cats(catDatabase), nil},
	{"mongodb", "MongoDB", cats(catDatabase), []string{"mongo"}},
	{"dynamodb", "DynamoDB", cats(catDatabase), []string{"dynamo"}},
	{"cockroachdb", "CockroachDB", cats(catDatabase), []string{"cockroach"}},
	{"libsql", "libSQL", cats(catDatabase), nil},
	{"turso", "Turso", cats(catDatabase), nil},
	{"supabase", "Supabase", cats(catDatabase), nil},
	{"planetscale", "PlanetScale", cats(catDatabase), nil},
	{"sql server", "SQL Server", cats(catDatabase), []string{"mssql", "ms sql"}},
	{"cassandra", "Cassandra", cats(catDatabase), nil},
	{"clickhouse", "ClickHouse", cats(catDatabase), nil},
	{"firestore", "Firestore", cats(catDatabase), nil},
	{"neon", "Neon", cats(catDatabase), nil},
	{"redis", "Redis", cats(catCache), nil},
	{"memcached", "Memcached", cats(catCache), nil},
	{"valkey", "Valkey", cats(catCache), nil},

	{"github actions", "GitHub Actions", cats(catCI), []string{"gh actions", "gha", "github action"}},
	{"gitlab ci", "GitLab CI", cats(catCI), []string{"gitlab-ci", "gitlab ci/cd"}},
	{"circleci", "CircleCI", cats(catCI), []string{"circle ci", "circle"}},
	{"jenkins", "Jenkins", cats(catCI), nil},
	{"travis", "Travis CI", cats(catCI), []string{"travis ci", "travis-ci"}},
	{"buildkite", "Buildkite", cats(catCI), nil},
	{"drone", "Drone", cats(catCI), []string{"drone ci"}},
	{"azure pipelines", "Azure Pipelines", cats(catCI), nil},
	{"bitbucket pipelines", "Bitbucket Pipelines", cats(catCI), nil},
	{"teamcity", "TeamCity", cats(catCI), nil},

	{"vim", "Vim", cats(catEditor), nil},
	{"neovim", "Neovim", cats(catEditor), []string{"nvim", "neo vim"}},
	{"emacs", "Emacs", cats(catEditor), nil},
	{"vscode", "VS Code", cats(catEditor), []string{"vs code", "visual studio code"}},
	{"cursor", "Cursor", cats(catEditor), nil},
	{"intellij", "IntelliJ", cats(catEditor), []string{"intellij idea"}},
	{"goland", "GoLand", cats(catEditor), nil},
	{"webstorm", "WebStorm", cats(catEditor), nil},
	{"pycharm", "PyCharm", cats(catEditor), nil},
	{"zed", "Zed", cats(catEditor), nil},
	{"sublime text", "Sublime Text", cats(catEditor), []string{"sublime"}},
	{"helix", "Helix", cats(catEditor), nil},
	{"xcode", "Xcode", cats(catEditor), nil},

	{"prettier", "Prettier", cats(catFormatter), nil},
	{"black", "Black", cats(catFormatter), nil},
	{"gofmt", "gofmt", cats(catFormatter), nil},
	{"gofumpt", "gofumpt", cats(catFormatter), nil},
	{"goimports", "goimports", cats(catFormatter), nil},
	{"rustfmt", "rustfmt", cats(catFormatter), nil},
	{"dprint", "dprint", cats(catFormatter), nil},
	{"eslint", "ESLint", cats(catLinter), nil},
	{"golangci-lint", "golangci-lint", cats(catLinter), []string{"golangci", "golangci lint"}},
	{"ruff", "Ruff", cats(catLinter, catFormatter), nil},
	{"biome", "Biome", cats(catLinter, catFormatter), nil},
	{"pylint", "Pylint", cats(catLinter), nil},
	{"flake8", "flake8", cats(catLinter), nil},
	{"rubocop", "RuboCop", cats(catLinter), nil},
	{"clippy", "Clippy", cats(catLinter), nil},
	{"oxlint", "oxlint", cats(catLinter), nil},
	{"staticcheck", "staticcheck", cats(catLinter), nil},

	{"react", "React", cats(catFramework), []string{"reactjs", "react.js"}},
	{"vue", "Vue", cats(catFramework), []string{"vuejs", "vue.js"}},
	{"svelte", "Svelte", cats(catFramework), nil},
	{"sveltekit", "SvelteKit", cats(catFramework), nil},
	{"angular", "Angular", cats(catFramework), nil},
	{"next.js", "Next.js", cats(catFramework), []string{"nextjs", "next js"}},
	{"nuxt", "Nuxt", cats(catFramework), nil},
	{"remix", "Remix", cats(catFramework), nil},
	{"astro", "Astro", cats(catFramework), nil},
	{"django", "Django", cats(catFramework), nil},
	{"flask", "Flask", cats(catFramework), nil},
	{"fastapi", "FastAPI", cats(catFramework), nil},
	{"rails", "Rails", cats(catFramework), []string{"ruby on rails"}},
	{"express", "Express", cats(catFramework), []string{"express.js", "expressjs"}},
	{"nestjs", "NestJS", cats(catFramework), nil},
	{"spring boot", "Spring Boot", cats(catFramework), []string{"spring"}},
	{"laravel", "Laravel", cats(catFramework), nil},
	{"gin", "Gin", cats(catFramework), nil},
	{"phoenix", "Phoenix", cats(catFramework), nil},
	{"htmx", "htmx", cats(catFramework), nil},
	{"fastify", "Fastify", cats(catFramework), nil},
	{"hono", "Hono", cats(catFramework), nil},
	{"koa", "Koa", cats(catFramework), nil},
	{"flutter", "Flutter", cats(catFramework), nil},
	{"react native", "React Native", cats(catFramework), nil},
	{"electron", "Electron", cats(catFramework), nil},
	{"tauri", "Tauri", cats(catFramework), nil},
	{"swiftui", "SwiftUI", cats(catFramework), nil},
	{"jetpack compose", "Jetpack Compose", cats(catFramework), nil},
	{"solid", "SolidJS", cats(catFramework), []string{"solidjs", "solid.js"}},
	{"symfony", "Symfony", cats(catFramework), nil},
	{"actix", "Actix Web", cats(catFramework), []string{"actix-web", "actix web"}},
	{"axum", "Axum", cats(catFramework), nil},
	{"chi", "chi", cats(catFramework), nil},
	{"sinatra", "Sinatra", cats(catFramework), nil},
	{"tailwind", "Tailwind CSS", cats(catFramework), []string{"tailwindcss", "tailwind css"}},

	{"vite", "Vite", cats(catBundler), nil},
	{"webpack", "webpack", cats(catBundler), nil},
	{"esbuild", "esbuild", cats(catBundler), nil},
	{"rollup", "Rollup", cats(catBundler), nil},
	{"parcel", "Parcel", cats(catBundler), nil},
	{"turbopack", "Turbopack", cats(catBundler), nil},
	{"rspack", "Rspack", cats(catBundler), nil},

	{"zsh", "zsh", cats(catShell), nil},
	{"bash", "bash", cats(catShell), nil},
	{"fish", "fish", cats(catShell), nil},
	{"nushell", "Nushell", cats(catShell), nil},

	{"macos", "macOS", cats(catOS), []string{"mac", "osx", "os x", "mac os"}},
	{"linux", "Linux", cats(catOS), nil},
	{"windows", "Windows", cats(catOS), nil},
	{"ubuntu", "Ubuntu", cats(catOS), nil},
	{"fedora", "Fedora", cats(catOS), nil},
	{"arch linux", "Arch Linux", cats(catOS), []string{"arch"}},
	{"nixos", "NixOS", cats(catOS), nil},
	{"debian", "Debian", cats(catOS), nil},
	{"wsl", "WSL", cats(catOS), []string{"wsl2"}},
}

var toolIndex = sync.OnceValue(func() map[string]*tool {
	idx := make(map[string]*tool, len(toolTable)*2)
	for i := range toolTable {
		t := &toolTable[i]
		idx[t.name] = t
		for _, a := range t.aliases {
			idx[a] = t
		}
	}
	return idx
})

// versionSuffix matches what follows a tool name without changing the tool:
// "postgres 16", "node@20", "python3.12", "node lts".
var versionSuffix = lazyRegexp(`(?:[ @-]?v?\d+(?:\.\d+)*(?:\.x)?|[ -](?:lts|latest|stable|nightly|beta))+$`)

// toolNouns are words that may trail a tool name without changing it.
var toolNouns = []string{" editor", " ide", " cli", " db", " database", " server", " runtime", " ci", " ci/cd", " cache", " workspaces", " monorepo", " sdk"}

// lookupTool finds the tool a noun phrase names, if the phrase is nothing but
// a tool name with an optional version or a generic trailing noun.
func lookupTool(phrase string) (*tool, bool) {
	p := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(phrase), "the "))
	if t, ok := toolIndex()[p]; ok {
		return t, true
	}
	if v := versionSuffix().ReplaceAllString(p, ""); v != p && v != "" {
		if t, ok := toolIndex()[v]; ok {
			return t, true
		}
		p = v
	}
	for _, n := range toolNouns {
		if base, ok := strings.CutSuffix(p, n); ok && base != "" {
			if t, ok := lookupTool(base); ok {
				return t, true
			}
		}
	}
	return nil, false
}

// pickCategory chooses the category t fills in this sentence: the one it
// shares with the other tool named beside it ("from node to bun"), else the
// hint from the verb or slot ("deploy to AWS", "our package manager is bun"),
// else its usual reading.
func pickCategory(t *tool, other *tool, hint string) string {
	if other != nil {
		for _, c := range t.cats {
			if slices.Contains(other.cats, c) {
				return c
			}
		}
	}
	if hint != "" && slices.Contains(t.cats, hint) {
		return hint
	}
	return t.cats[0]
}

// slotCategory maps the noun that names a slot ("our CI", "my editor", "as
// our package manager", "for testing") to the category it asks for.
var slotCategory = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"package manager": catPackageManager, "package management": catPackageManager,
		"packages": catPackageManager, "dependencies": catPackageManager, "deps": catPackageManager,
		"runtime": catRuntime, "js runtime": catRuntime, "javascript runtime": catRuntime,
		"language": catLanguage, "programming language": catLanguage, "main language": catLanguage,
		"primary language": catLanguage,
		"test runner":      catTestRunner, "testing": catTestRunner, "tests": catTestRunner,
		"unit tests": catTestRunner, "test suite": catTestRunner, "test framework": catTestRunner,
		"testing framework": catTestRunner,
		"e2e tests":         catE2E, "e2e": catE2E, "end-to-end tests": catE2E, "e2e testing": catE2E,
		"deploys": catDeploy, "deployment": catDeploy, "deployments": catDeploy, "deploying": catDeploy,
		"hosting": catDeploy, "host": catDeploy, "deploy target": catDeploy, "deploy": catDeploy,
		"deployment target": catDeploy, "hosting provider": catDeploy, "hosting platform": catDeploy,
		"deployment platform": catDeploy, "deploy platform": catDeploy,
		"database": catDatabase, "db": catDatabase, "main database": catDatabase, "primary database": catDatabase,
		"storage": catDatabase, "persistence": catDatabase,
		"caching": catCache, "cache": catCache,
		"ci": catCI, "ci/cd": catCI, "ci pipeline": catCI, "pipeline": catCI, "builds": catCI,
		"continuous integration": catCI,
		"editor":                 catEditor, "ide": catEditor, "text editor": catEditor,
		"formatter": catFormatter, "formatting": catFormatter, "code formatter": catFormatter,
		"linter": catLinter, "linting": catLinter,
		"cloud": catCloud, "cloud provider": catCloud, "cloud platform": catCloud,
		"framework": catFramework, "frontend framework": catFramework, "web framework": catFramework,
		"bundler": catBundler, "bundling": catBundler, "build tool": catBundler,
		"shell": catShell,
		"os":    catOS, "operating system": catOS, "machine": catOS, "laptop": catOS,
	}
})
