// Package redact removes secrets from text before anything is stored, logged,
// written to MEMORY.md or synced: API keys and tokens (OpenAI, Anthropic, AWS,
// GitHub, Slack, Stripe, Google), JWTs, bearer and basic credentials, private
// key blocks, passwords in URLs, secret-looking assignments in code and .env
// files, credentials given on command lines (curl -u user:pass, mysql -pPASS,
// docker login -p, --password=…; see cmdline.go), and anything a person
// wraps in <private>…</private>.
//
// Each secret is replaced by a marker such as [REDACTED:openai-key] so the
// surrounding text stays readable. Redaction is idempotent: redacting a
// redacted text changes nothing. Text without secrets is returned unchanged,
// byte for byte.
//
// redact sits on the hook hot path, so it imports only the standard library
// and must never import store, agent, hooks or any I/O package. Its cost is
// linear in the input: every rule is gated by a literal anchor found with
// strings.Index, and regular expressions run only on short windows around
// the anchors.
package redact
