package relations

import (
	"slices"
	"strings"
	"sync"

	"github.com/credence-mem/credence/internal/lazyre"
)

// Tool categories. Each maps to one predicate (CategoryPredicate), so every
// way of saying which package manager a project uses lands on the same
// predicate.
const (
	CatPackageManager = "package_manager"
	CatRuntime        = "runtime"
	CatLanguage       = "language"
	CatTestRunner     = "test_runner"
	CatE2E            = "e2e"
	CatDeploy         = "deploy"
	CatDatabase       = "database"
	CatCache          = "cache"
	CatCI             = "ci"
	CatEditor         = "editor"
	CatFormatter      = "formatter"
	CatLinter         = "linter"
	CatCloud          = "cloud"
	CatFramework      = "framework"
	CatBundler        = "bundler"
	CatShell          = "shell"
	CatOS             = "os"
	// The parts of a stack beyond the language and its tooling.
	CatState         = "state_management"
	CatStyling       = "styling"
	CatORM           = "orm"
	CatQueue         = "queue"
	CatIaC           = "iac"
	CatBuildTool     = "build_tool"
	CatErrorTracker  = "error_tracker"
	CatObservability = "observability"
	CatFeatureFlags  = "feature_flags"
	CatSecrets       = "secrets_store"
	CatI18n          = "i18n"
	CatWarehouse     = "warehouse"
	CatDataPipeline  = "data_pipeline"
	CatOnCall        = "oncall"
	CatDates         = "date_library"
	CatLogging       = "logging"
	CatLocalEnv      = "local_env"
)

// Tool is one entry of the taxonomy. Categories lists the categories the
// tool can fill, the usual reading first: bun is a package manager unless
// the sentence pairs it with node or deno, AWS is a cloud unless something
// is deployed to it.
type Tool struct {
	Name       string
	Display    string
	Categories []string
	Aliases    []string
}

func cats(c ...string) []string { return c }

var toolTable = []Tool{
	{"npm", "npm", cats(CatPackageManager), nil},
	{"pnpm", "pnpm", cats(CatPackageManager), nil},
	{"yarn", "Yarn", cats(CatPackageManager), []string{"yarn berry", "yarn classic"}},
	{"bun", "Bun", cats(CatPackageManager, CatRuntime), []string{"bun.sh", "bunjs"}},
	{"pip", "pip", cats(CatPackageManager), nil},
	{"poetry", "Poetry", cats(CatPackageManager), nil},
	{"uv", "uv", cats(CatPackageManager), nil},
	{"pipenv", "Pipenv", cats(CatPackageManager), nil},
	{"conda", "conda", cats(CatPackageManager), []string{"anaconda", "miniconda"}},
	{"composer", "Composer", cats(CatPackageManager), nil},
	{"pdm", "PDM", cats(CatPackageManager), nil},
	{"pip-tools", "pip-tools", cats(CatPackageManager), []string{"pip-compile", "piptools"}},
	{"rye", "Rye", cats(CatPackageManager), nil},
	{"hatch", "Hatch", cats(CatPackageManager), nil},
	{"bundler", "Bundler", cats(CatPackageManager), nil},

	{"node", "Node.js", cats(CatRuntime), []string{"node.js", "nodejs", "node js"}},
	{"deno", "Deno", cats(CatRuntime), nil},

	{"go", "Go", cats(CatLanguage), []string{"golang"}},
	{"rust", "Rust", cats(CatLanguage), nil},
	{"python", "Python", cats(CatLanguage), []string{"py"}},
	{"typescript", "TypeScript", cats(CatLanguage), []string{"ts"}},
	{"javascript", "JavaScript", cats(CatLanguage), []string{"js", "vanilla js"}},
	{"java", "Java", cats(CatLanguage), nil},
	{"kotlin", "Kotlin", cats(CatLanguage), nil},
	{"ruby", "Ruby", cats(CatLanguage), nil},
	{"elixir", "Elixir", cats(CatLanguage), nil},
	{"php", "PHP", cats(CatLanguage), nil},
	{"swift", "Swift", cats(CatLanguage), nil},
	{"scala", "Scala", cats(CatLanguage), nil},
	{"c#", "C#", cats(CatLanguage), []string{"csharp", "c sharp"}},
	{"c++", "C++", cats(CatLanguage), []string{"cpp"}},
	{"zig", "Zig", cats(CatLanguage), nil},
	{"haskell", "Haskell", cats(CatLanguage), nil},
	{"ocaml", "OCaml", cats(CatLanguage), nil},
	{"clojure", "Clojure", cats(CatLanguage), nil},
	{"dart", "Dart", cats(CatLanguage), nil},
	{"lua", "Lua", cats(CatLanguage), nil},

	{"jest", "Jest", cats(CatTestRunner), nil},
	{"vitest", "Vitest", cats(CatTestRunner), nil},
	{"mocha", "Mocha", cats(CatTestRunner), nil},
	{"pytest", "pytest", cats(CatTestRunner), []string{"py.test"}},
	{"rspec", "RSpec", cats(CatTestRunner), nil},
	{"go test", "go test", cats(CatTestRunner), nil},
	{"ava", "AVA", cats(CatTestRunner), nil},
	{"jasmine", "Jasmine", cats(CatTestRunner), nil},
	{"junit", "JUnit", cats(CatTestRunner), []string{"junit5", "junit 5"}},
	{"minitest", "Minitest", cats(CatTestRunner), nil},
	{"phpunit", "PHPUnit", cats(CatTestRunner), nil},
	{"testng", "TestNG", cats(CatTestRunner), nil},
	{"nextest", "cargo-nextest", cats(CatTestRunner), []string{"cargo nextest", "cargo-nextest"}},
	{"cargo test", "cargo test", cats(CatTestRunner), nil},
	{"playwright", "Playwright", cats(CatE2E, CatTestRunner), nil},
	{"cypress", "Cypress", cats(CatE2E), nil},
	{"selenium", "Selenium", cats(CatE2E), nil},
	{"puppeteer", "Puppeteer", cats(CatE2E), nil},

	{"fly.io", "Fly.io", cats(CatDeploy), []string{"fly", "flyio", "fly io"}},
	{"vercel", "Vercel", cats(CatDeploy), nil},
	{"heroku", "Heroku", cats(CatDeploy), nil},
	{"render", "Render", cats(CatDeploy), []string{"render.com"}},
	{"netlify", "Netlify", cats(CatDeploy), nil},
	{"railway", "Railway", cats(CatDeploy), nil},
	{"kubernetes", "Kubernetes", cats(CatDeploy), []string{"k8s", "kube", "eks", "gke", "aks"}},
	{"cloud run", "Cloud Run", cats(CatDeploy), []string{"google cloud run"}},
	{"app engine", "App Engine", cats(CatDeploy), []string{"google app engine"}},
	{"github pages", "GitHub Pages", cats(CatDeploy), nil},
	{"lambda", "AWS Lambda", cats(CatDeploy), []string{"aws lambda"}},
	{"ecs", "AWS ECS", cats(CatDeploy), []string{"aws ecs", "fargate"}},
	{"aws", "AWS", cats(CatCloud, CatDeploy), []string{"amazon web services"}},
	{"gcp", "GCP", cats(CatCloud, CatDeploy), []string{"google cloud", "google cloud platform", "gcloud"}},
	{"azure", "Azure", cats(CatCloud, CatDeploy), []string{"microsoft azure"}},
	{"cloudflare", "Cloudflare", cats(CatCloud, CatDeploy), []string{"cloudflare workers", "cloudflare pages"}},
	{"digitalocean", "DigitalOcean", cats(CatCloud, CatDeploy), []string{"digital ocean"}},
	{"hetzner", "Hetzner", cats(CatCloud, CatDeploy), nil},
	{"linode", "Linode", cats(CatCloud, CatDeploy), []string{"akamai cloud"}},
	{"vultr", "Vultr", cats(CatCloud, CatDeploy), nil},
	{"ovh", "OVHcloud", cats(CatCloud, CatDeploy), []string{"ovhcloud"}},
	{"argocd", "Argo CD", cats(CatDeploy), []string{"argo cd", "argo-cd"}},
	{"kamal", "Kamal", cats(CatDeploy), nil},
	{"capistrano", "Capistrano", cats(CatDeploy), []string{"cap deploy"}},
	{"deno deploy", "Deno Deploy", cats(CatDeploy), nil},
	{"elastic beanstalk", "Elastic Beanstalk", cats(CatDeploy), []string{"aws elastic beanstalk", "beanstalk"}},
	{"nomad", "Nomad", cats(CatDeploy), []string{"hashicorp nomad"}},
	{"docker swarm", "Docker Swarm", cats(CatDeploy), nil},
	{"coolify", "Coolify", cats(CatDeploy), nil},
	{"dokku", "Dokku", cats(CatDeploy), nil},

	{"postgres", "PostgreSQL", cats(CatDatabase), []string{"postgresql", "pg", "postgre"}},
	{"mysql", "MySQL", cats(CatDatabase), nil},
	{"mariadb", "MariaDB", cats(CatDatabase), nil},
	{"sqlite", "SQLite", cats(CatDatabase), nil},
	{"mongodb", "MongoDB", cats(CatDatabase), []string{"mongo"}},
	{"dynamodb", "DynamoDB", cats(CatDatabase), []string{"dynamo"}},
	{"cockroachdb", "CockroachDB", cats(CatDatabase), []string{"cockroach"}},
	{"libsql", "libSQL", cats(CatDatabase), nil},
	{"turso", "Turso", cats(CatDatabase), nil},
	{"supabase", "Supabase", cats(CatDatabase), nil},
	{"planetscale", "PlanetScale", cats(CatDatabase), nil},
	{"sql server", "SQL Server", cats(CatDatabase), []string{"mssql", "ms sql"}},
	{"cassandra", "Cassandra", cats(CatDatabase), nil},
	{"clickhouse", "ClickHouse", cats(CatDatabase), nil},
	{"firestore", "Firestore", cats(CatDatabase), nil},
	{"neon", "Neon", cats(CatDatabase), nil},
	{"scylladb", "ScyllaDB", cats(CatDatabase), []string{"scylla"}},
	{"timescaledb", "TimescaleDB", cats(CatDatabase), []string{"timescale"}},
	{"couchdb", "CouchDB", cats(CatDatabase), nil},
	{"neo4j", "Neo4j", cats(CatDatabase), nil},
	{"redis", "Redis", cats(CatCache), nil},
	{"memcached", "Memcached", cats(CatCache), nil},
	{"valkey", "Valkey", cats(CatCache), nil},

	{"github actions", "GitHub Actions", cats(CatCI), []string{"gh actions", "gha", "github action"}},
	{"gitlab ci", "GitLab CI", cats(CatCI), []string{"gitlab-ci", "gitlab ci/cd"}},
	{"circleci", "CircleCI", cats(CatCI), []string{"circle ci", "circle"}},
	{"jenkins", "Jenkins", cats(CatCI), nil},
	{"travis", "Travis CI", cats(CatCI), []string{"travis ci", "travis-ci"}},
	{"buildkite", "Buildkite", cats(CatCI), nil},
	{"drone", "Drone", cats(CatCI), []string{"drone ci"}},
	{"azure pipelines", "Azure Pipelines", cats(CatCI), nil},
	{"bitbucket pipelines", "Bitbucket Pipelines", cats(CatCI), nil},
	{"teamcity", "TeamCity", cats(CatCI), nil},
	{"azure devops", "Azure DevOps", cats(CatCI), nil},
	{"semaphore", "Semaphore", cats(CatCI), []string{"semaphore ci", "semaphoreci"}},
	{"woodpecker", "Woodpecker CI", cats(CatCI), []string{"woodpecker ci"}},
	{"tekton", "Tekton", cats(CatCI), nil},

	{"vim", "Vim", cats(CatEditor), nil},
	{"neovim", "Neovim", cats(CatEditor), []string{"nvim", "neo vim"}},
	{"emacs", "Emacs", cats(CatEditor), nil},
	{"vscode", "VS Code", cats(CatEditor), []string{"vs code", "visual studio code"}},
	{"cursor", "Cursor", cats(CatEditor), nil},
	{"intellij", "IntelliJ", cats(CatEditor), []string{"intellij idea"}},
	{"goland", "GoLand", cats(CatEditor), nil},
	{"webstorm", "WebStorm", cats(CatEditor), nil},
	{"pycharm", "PyCharm", cats(CatEditor), nil},
	{"zed", "Zed", cats(CatEditor), nil},
	{"sublime text", "Sublime Text", cats(CatEditor), []string{"sublime"}},
	{"helix", "Helix", cats(CatEditor), nil},
	{"xcode", "Xcode", cats(CatEditor), nil},
	{"rider", "Rider", cats(CatEditor), []string{"jetbrains rider"}},
	{"android studio", "Android Studio", cats(CatEditor), nil},
	{"nano", "nano", cats(CatEditor), nil},

	{"prettier", "Prettier", cats(CatFormatter), nil},
	{"black", "Black", cats(CatFormatter), nil},
	{"gofmt", "gofmt", cats(CatFormatter), nil},
	{"gofumpt", "gofumpt", cats(CatFormatter), nil},
	{"goimports", "goimports", cats(CatFormatter), nil},
	{"rustfmt", "rustfmt", cats(CatFormatter), nil},
	{"dprint", "dprint", cats(CatFormatter), nil},
	{"eslint", "ESLint", cats(CatLinter), nil},
	{"oxlint", "oxlint", cats(CatLinter), nil},
	{"golangci-lint", "golangci-lint", cats(CatLinter), []string{"golangci", "golangci lint"}},
	{"ruff", "Ruff", cats(CatLinter, CatFormatter), nil},
	{"biome", "Biome", cats(CatLinter, CatFormatter), nil},
	{"pylint", "Pylint", cats(CatLinter), nil},
	{"flake8", "flake8", cats(CatLinter), nil},
	{"rubocop", "RuboCop", cats(CatLinter), nil},
	{"clippy", "Clippy", cats(CatLinter), nil},
	{"oxlint", "oxlint", cats(CatLinter), nil},
	{"staticcheck", "staticcheck", cats(CatLinter), nil},
	{"mypy", "mypy", cats(CatLinter), nil},
	{"standardrb", "standardrb", cats(CatLinter), []string{"standard ruby"}},

	{"react", "React", cats(CatFramework), []string{"reactjs", "react.js"}},
	{"vue", "Vue", cats(CatFramework), []string{"vuejs", "vue.js"}},
	{"svelte", "Svelte", cats(CatFramework), nil},
	{"sveltekit", "SvelteKit", cats(CatFramework), nil},
	{"angular", "Angular", cats(CatFramework), nil},
	{"next.js", "Next.js", cats(CatFramework), []string{"nextjs", "next js"}},
	{"nuxt", "Nuxt", cats(CatFramework), nil},
	{"remix", "Remix", cats(CatFramework), nil},
	{"astro", "Astro", cats(CatFramework), nil},
	{"docusaurus", "Docusaurus", cats(CatFramework), nil},
	{"mkdocs", "MkDocs", cats(CatFramework), []string{"mkdocs material"}},
	{"vitepress", "VitePress", cats(CatFramework), nil},
	{"hugo", "Hugo", cats(CatFramework), nil},
	{"jekyll", "Jekyll", cats(CatFramework), nil},
	{"godot", "Godot", cats(CatFramework), []string{"godot engine"}},
	{"unity", "Unity", cats(CatFramework), []string{"unity3d"}},
	{"django", "Django", cats(CatFramework), nil},
	{"flask", "Flask", cats(CatFramework), nil},
	{"fastapi", "FastAPI", cats(CatFramework), nil},
	{"rails", "Rails", cats(CatFramework), []string{"ruby on rails"}},
	{"express", "Express", cats(CatFramework), []string{"express.js", "expressjs"}},
	{"nestjs", "NestJS", cats(CatFramework), nil},
	{"spring boot", "Spring Boot", cats(CatFramework), []string{"spring"}},
	{"laravel", "Laravel", cats(CatFramework), nil},
	{"gin", "Gin", cats(CatFramework), nil},
	{"phoenix", "Phoenix", cats(CatFramework), nil},
	{"htmx", "htmx", cats(CatFramework), nil},
	{"fastify", "Fastify", cats(CatFramework), nil},
	{"hono", "Hono", cats(CatFramework), nil},
	{"preact", "Preact", cats(CatFramework), nil},
	{"qwik", "Qwik", cats(CatFramework), nil},
	{"ember", "Ember", cats(CatFramework), []string{"ember.js", "emberjs"}},
	{"quarkus", "Quarkus", cats(CatFramework), nil},
	{"micronaut", "Micronaut", cats(CatFramework), nil},
	{"starlette", "Starlette", cats(CatFramework), nil},
	{"litestar", "Litestar", cats(CatFramework), nil},
	{"jquery", "jQuery", cats(CatFramework), nil},
	{"koa", "Koa", cats(CatFramework), nil},
	{"flutter", "Flutter", cats(CatFramework), nil},
	{"react native", "React Native", cats(CatFramework), nil},
	{"electron", "Electron", cats(CatFramework), nil},
	{"tauri", "Tauri", cats(CatFramework), nil},
	{"swiftui", "SwiftUI", cats(CatFramework), nil},
	{"jetpack compose", "Jetpack Compose", cats(CatFramework), nil},
	{"solid", "SolidJS", cats(CatFramework), []string{"solidjs", "solid.js"}},
	{"symfony", "Symfony", cats(CatFramework), nil},
	{"actix", "Actix Web", cats(CatFramework), []string{"actix-web", "actix web"}},
	{"axum", "Axum", cats(CatFramework), nil},
	{"chi", "chi", cats(CatFramework), nil},
	{"sinatra", "Sinatra", cats(CatFramework), nil},
	{"ktor", "Ktor", cats(CatFramework), nil},
	{"vapor", "Vapor", cats(CatFramework), nil},
	{"dropwizard", "Dropwizard", cats(CatFramework), nil},
	{"labstack echo", "Echo", cats(CatFramework), []string{"echo framework"}},
	{"gofiber", "Fiber", cats(CatFramework), []string{"go fiber"}},

	{"vite", "Vite", cats(CatBundler), nil},
	{"webpack", "webpack", cats(CatBundler), nil},
	{"esbuild", "esbuild", cats(CatBundler), nil},
	{"rollup", "Rollup", cats(CatBundler), nil},
	{"parcel", "Parcel", cats(CatBundler), nil},
	{"turbopack", "Turbopack", cats(CatBundler), nil},
	{"rspack", "Rspack", cats(CatBundler), nil},

	{"tailwind", "Tailwind CSS", cats(CatStyling, CatFramework), []string{"tailwindcss", "tailwind css"}},
	{"styled-components", "styled-components", cats(CatStyling), []string{"styled components"}},
	{"emotion", "Emotion", cats(CatStyling), []string{"@emotion"}},
	{"css modules", "CSS Modules", cats(CatStyling), []string{"css-modules"}},
	{"sass", "Sass", cats(CatStyling), []string{"scss"}},
	{"bootstrap", "Bootstrap", cats(CatStyling), nil},
	{"chakra ui", "Chakra UI", cats(CatStyling), []string{"chakra", "chakra-ui"}},
	{"material ui", "Material UI", cats(CatStyling), []string{"mui", "material-ui"}},
	{"vanilla-extract", "vanilla-extract", cats(CatStyling), []string{"vanilla extract"}},
	{"stylex", "StyleX", cats(CatStyling), nil},
	{"unocss", "UnoCSS", cats(CatStyling), nil},
	{"bulma", "Bulma", cats(CatStyling), nil},
	{"panda css", "Panda CSS", cats(CatStyling), []string{"pandacss"}},
	{"stitches", "Stitches", cats(CatStyling), nil},
	{"shadcn", "shadcn/ui", cats(CatStyling), []string{"shadcn/ui", "shadcn ui"}},

	{"redux", "Redux", cats(CatState), []string{"redux toolkit", "rtk", "@reduxjs/toolkit"}},
	{"zustand", "Zustand", cats(CatState), nil},
	{"jotai", "Jotai", cats(CatState), nil},
	{"mobx", "MobX", cats(CatState), []string{"mobx-state-tree"}},
	{"pinia", "Pinia", cats(CatState), nil},
	{"vuex", "Vuex", cats(CatState), nil},
	{"recoil", "Recoil", cats(CatState), nil},
	{"xstate", "XState", cats(CatState), nil},
	{"ngrx", "NgRx", cats(CatState), nil},
	{"valtio", "Valtio", cats(CatState), nil},
	{"tanstack query", "TanStack Query", cats(CatState), []string{"react query", "react-query", "@tanstack/query"}},

	{"prisma", "Prisma", cats(CatORM), nil},
	{"drizzle", "Drizzle", cats(CatORM), []string{"drizzle orm", "drizzle-orm"}},
	{"typeorm", "TypeORM", cats(CatORM), nil},
	{"sequelize", "Sequelize", cats(CatORM), nil},
	{"sqlalchemy", "SQLAlchemy", cats(CatORM), nil},
	{"hibernate", "Hibernate", cats(CatORM), []string{"jpa", "spring data jpa"}},
	{"active record", "Active Record", cats(CatORM), []string{"activerecord"}},
	{"ecto", "Ecto", cats(CatORM), nil},
	{"gorm", "GORM", cats(CatORM), nil},
	{"sqlc", "sqlc", cats(CatORM), nil},
	{"diesel", "Diesel", cats(CatORM), nil},
	{"entity framework", "Entity Framework", cats(CatORM), []string{"ef core", "entity framework core"}},
	{"django orm", "Django ORM", cats(CatORM), nil},
	{"mongoose", "Mongoose", cats(CatORM), nil},
	{"knex", "Knex", cats(CatORM), []string{"knex.js"}},
	{"mikro-orm", "MikroORM", cats(CatORM), []string{"mikroorm", "mikro orm"}},
	{"jooq", "jOOQ", cats(CatORM), nil},
	{"eloquent", "Eloquent", cats(CatORM), nil},
	{"sqlmodel", "SQLModel", cats(CatORM), nil},
	{"peewee", "Peewee", cats(CatORM), nil},
	{"kysely", "Kysely", cats(CatORM), nil},

	{"rabbitmq", "RabbitMQ", cats(CatQueue), []string{"rabbit"}},
	{"kafka", "Kafka", cats(CatQueue), []string{"apache kafka", "redpanda"}},
	{"sqs", "SQS", cats(CatQueue), []string{"aws sqs", "amazon sqs"}},
	{"sns", "SNS", cats(CatQueue), []string{"aws sns"}},
	{"nats", "NATS", cats(CatQueue), []string{"nats jetstream", "jetstream"}},
	{"pub/sub", "Pub/Sub", cats(CatQueue), []string{"google pub/sub", "gcp pub/sub", "pubsub", "cloud pub/sub"}},
	{"kinesis", "Kinesis", cats(CatQueue), []string{"aws kinesis"}},
	{"sidekiq", "Sidekiq", cats(CatQueue), nil},
	{"celery", "Celery", cats(CatQueue), nil},
	{"bullmq", "BullMQ", cats(CatQueue), []string{"bull"}},
	{"activemq", "ActiveMQ", cats(CatQueue), nil},
	{"pulsar", "Pulsar", cats(CatQueue), []string{"apache pulsar"}},
	{"resque", "Resque", cats(CatQueue), nil},
	{"oban", "Oban", cats(CatQueue), nil},
	{"eventbridge", "EventBridge", cats(CatQueue), []string{"aws eventbridge"}},
	{"azure service bus", "Azure Service Bus", cats(CatQueue), []string{"service bus"}},

	{"terraform", "Terraform", cats(CatIaC, CatDeploy), []string{"opentofu", "tofu"}},
	{"pulumi", "Pulumi", cats(CatIaC, CatDeploy), nil},
	{"aws cdk", "AWS CDK", cats(CatIaC), []string{"cdk"}},
	{"cloudformation", "CloudFormation", cats(CatIaC), []string{"aws cloudformation", "cfn"}},
	{"ansible", "Ansible", cats(CatIaC, CatDeploy), nil},
	{"crossplane", "Crossplane", cats(CatIaC), nil},
	{"helm", "Helm", cats(CatIaC, CatDeploy), []string{"helm charts"}},
	{"terragrunt", "Terragrunt", cats(CatIaC), nil},
	{"bicep", "Bicep", cats(CatIaC), nil},
	{"sst", "SST", cats(CatIaC), nil},

	{"bazel", "Bazel", cats(CatBuildTool), []string{"bazelisk"}},
	{"gradle", "Gradle", cats(CatBuildTool), nil},
	{"maven", "Maven", cats(CatBuildTool), []string{"mvn"}},
	{"gnu make", "Make", cats(CatBuildTool), []string{"makefile", "makefiles"}},
	{"cmake", "CMake", cats(CatBuildTool), nil},
	{"nx", "Nx", cats(CatBuildTool), nil},
	{"turborepo", "Turborepo", cats(CatBuildTool), nil},
	{"buck2", "Buck2", cats(CatBuildTool), []string{"buck"}},
	{"pants", "Pants", cats(CatBuildTool), nil},
	{"sbt", "sbt", cats(CatBuildTool), nil},
	{"meson", "Meson", cats(CatBuildTool), nil},
	{"lerna", "Lerna", cats(CatBuildTool), nil},
	{"msbuild", "MSBuild", cats(CatBuildTool), nil},

	{"sentry", "Sentry", cats(CatErrorTracker), nil},
	{"rollbar", "Rollbar", cats(CatErrorTracker), nil},
	{"bugsnag", "Bugsnag", cats(CatErrorTracker), nil},
	{"crashlytics", "Crashlytics", cats(CatErrorTracker), []string{"firebase crashlytics"}},
	{"honeybadger", "Honeybadger", cats(CatErrorTracker), nil},
	{"raygun", "Raygun", cats(CatErrorTracker), nil},
	{"airbrake", "Airbrake", cats(CatErrorTracker), nil},

	{"datadog", "Datadog", cats(CatObservability), nil},
	{"grafana", "Grafana", cats(CatObservability), nil},
	{"prometheus", "Prometheus", cats(CatObservability), nil},
	{"new relic", "New Relic", cats(CatObservability), []string{"newrelic"}},
	{"honeycomb", "Honeycomb", cats(CatObservability), nil},
	{"elasticsearch", "Elasticsearch", cats(CatObservability, CatDatabase), []string{"elastic", "opensearch"}},
	{"kibana", "Kibana", cats(CatObservability), []string{"elk", "elk stack"}},
	{"loki", "Loki", cats(CatObservability), []string{"grafana loki"}},
	{"splunk", "Splunk", cats(CatObservability), nil},
	{"opentelemetry", "OpenTelemetry", cats(CatObservability), []string{"otel"}},
	{"jaeger", "Jaeger", cats(CatObservability), nil},
	{"dynatrace", "Dynatrace", cats(CatObservability), nil},
	{"cloudwatch", "CloudWatch", cats(CatObservability), []string{"aws cloudwatch"}},
	{"signoz", "SigNoz", cats(CatObservability), nil},
	{"papertrail", "Papertrail", cats(CatObservability), nil},

	{"launchdarkly", "LaunchDarkly", cats(CatFeatureFlags), []string{"launch darkly"}},
	{"unleash", "Unleash", cats(CatFeatureFlags), nil},
	{"flipper", "Flipper", cats(CatFeatureFlags), nil},
	{"flagsmith", "Flagsmith", cats(CatFeatureFlags), nil},
	{"growthbook", "GrowthBook", cats(CatFeatureFlags), nil},
	{"statsig", "Statsig", cats(CatFeatureFlags), nil},
	{"configcat", "ConfigCat", cats(CatFeatureFlags), nil},
	{"split.io", "Split", cats(CatFeatureFlags), nil},
	{"optimizely", "Optimizely", cats(CatFeatureFlags), nil},
	{"posthog", "PostHog", cats(CatFeatureFlags), nil},

	{"vault", "Vault", cats(CatSecrets), []string{"hashicorp vault"}},
	{"aws secrets manager", "AWS Secrets Manager", cats(CatSecrets), []string{"secrets manager", "aws secret manager"}},
	{"1password", "1Password", cats(CatSecrets), []string{"1password cli", "op cli"}},
	{"doppler", "Doppler", cats(CatSecrets), nil},
	{"sops", "SOPS", cats(CatSecrets), nil},
	{"sealed secrets", "Sealed Secrets", cats(CatSecrets), []string{"sealed-secrets"}},
	{"gcp secret manager", "GCP Secret Manager", cats(CatSecrets), []string{"google secret manager", "secret manager"}},
	{"azure key vault", "Azure Key Vault", cats(CatSecrets), []string{"key vault"}},
	{"infisical", "Infisical", cats(CatSecrets), nil},
	{"aws parameter store", "AWS Parameter Store", cats(CatSecrets), []string{"parameter store", "ssm parameter store", "ssm"}},

	{"i18next", "i18next", cats(CatI18n), []string{"react-i18next", "next-i18next"}},
	{"react-intl", "react-intl", cats(CatI18n), []string{"formatjs", "react intl"}},
	{"gettext", "gettext", cats(CatI18n), nil},
	{"project fluent", "Fluent", cats(CatI18n), []string{"fluent.js"}},
	{"vue-i18n", "vue-i18n", cats(CatI18n), nil},
	{"next-intl", "next-intl", cats(CatI18n), nil},
	{"lingui", "Lingui", cats(CatI18n), nil},
	{"rails i18n", "Rails I18n", cats(CatI18n), nil},
	{"crowdin", "Crowdin", cats(CatI18n), nil},
	{"lokalise", "Lokalise", cats(CatI18n), nil},

	{"snowflake", "Snowflake", cats(CatWarehouse), nil},
	{"bigquery", "BigQuery", cats(CatWarehouse), []string{"big query", "google bigquery"}},
	{"redshift", "Redshift", cats(CatWarehouse), []string{"aws redshift", "amazon redshift"}},
	{"databricks", "Databricks", cats(CatWarehouse), nil},
	{"synapse", "Azure Synapse", cats(CatWarehouse), []string{"azure synapse"}},

	{"dbt", "dbt", cats(CatDataPipeline), []string{"dbt core", "dbt cloud"}},
	{"airflow", "Airflow", cats(CatDataPipeline), []string{"apache airflow"}},
	{"dagster", "Dagster", cats(CatDataPipeline), nil},
	{"prefect", "Prefect", cats(CatDataPipeline), nil},
	{"fivetran", "Fivetran", cats(CatDataPipeline), nil},
	{"airbyte", "Airbyte", cats(CatDataPipeline), nil},
	{"spark", "Spark", cats(CatDataPipeline), []string{"apache spark", "pyspark"}},

	{"moment", "moment", cats(CatDates), []string{"moment.js", "momentjs"}},
	{"date-fns", "date-fns", cats(CatDates), nil},
	{"dayjs", "dayjs", cats(CatDates), []string{"day.js"}},
	{"luxon", "Luxon", cats(CatDates), nil},
	{"pendulum", "Pendulum", cats(CatDates), nil},
	{"arrow", "Arrow", cats(CatDates), nil},

	{"structlog", "structlog", cats(CatLogging), nil},
	{"loguru", "Loguru", cats(CatLogging), nil},
	{"winston", "winston", cats(CatLogging), nil},
	{"pino", "pino", cats(CatLogging), nil},
	{"zerolog", "zerolog", cats(CatLogging), nil},
	{"logrus", "logrus", cats(CatLogging), nil},
	{"zap", "zap", cats(CatLogging), nil},
	{"bunyan", "bunyan", cats(CatLogging), nil},

	{"devbox", "Devbox", cats(CatLocalEnv), nil},
	{"tilt", "Tilt", cats(CatLocalEnv), nil},
	{"docker compose", "Docker Compose", cats(CatLocalEnv), []string{"docker-compose", "compose"}},
	{"devcontainer", "Dev Containers", cats(CatLocalEnv), []string{"devcontainers", "dev container", "dev containers"}},
	{"vagrant", "Vagrant", cats(CatLocalEnv), nil},
	{"skaffold", "Skaffold", cats(CatLocalEnv), nil},
	{"nix", "Nix", cats(CatLocalEnv), []string{"nix-shell", "nix shell", "flake.nix"}},

	{"pagerduty", "PagerDuty", cats(CatOnCall), []string{"pager duty"}},
	{"opsgenie", "Opsgenie", cats(CatOnCall), nil},
	{"incident.io", "incident.io", cats(CatOnCall), nil},
	{"firehydrant", "FireHydrant", cats(CatOnCall), nil},
	{"rootly", "Rootly", cats(CatOnCall), nil},
	{"victorops", "VictorOps", cats(CatOnCall), []string{"splunk on-call"}},

	{"zsh", "zsh", cats(CatShell), nil},
	{"bash", "bash", cats(CatShell), nil},
	{"fish", "fish", cats(CatShell), nil},
	{"nushell", "Nushell", cats(CatShell), nil},
	{"powershell", "PowerShell", cats(CatShell), []string{"pwsh"}},

	{"macos", "macOS", cats(CatOS), []string{"mac", "osx", "os x", "mac os", "macbook", "macbook pro", "macbook air", "imac", "mac mini", "mac studio", "macos sonoma", "macos sequoia", "macos ventura", "sonoma", "sequoia", "ventura"}},
	{"linux", "Linux", cats(CatOS), nil},
	{"windows", "Windows", cats(CatOS), []string{"windows 10", "windows 11"}},
	{"ubuntu", "Ubuntu", cats(CatOS), nil},
	{"fedora", "Fedora", cats(CatOS), nil},
	{"arch linux", "Arch Linux", cats(CatOS), []string{"arch"}},
	{"nixos", "NixOS", cats(CatOS), nil},
	{"debian", "Debian", cats(CatOS), nil},
	{"wsl", "WSL", cats(CatOS), []string{"wsl2"}},

	{"bevy", "Bevy", cats(CatFramework), nil},
	{"zephyr", "Zephyr", cats(CatFramework), []string{"zephyr rtos"}},
	{"gdscript", "GDScript", cats(CatLanguage), nil},
}

var toolIndex = sync.OnceValue(func() map[string]*Tool {
	idx := make(map[string]*Tool, len(toolTable)*2)
	for i := range toolTable {
		t := &toolTable[i]
		idx[t.Name] = t
		for _, a := range t.Aliases {
			idx[a] = t
		}
	}
	return idx
})

var patterns lazyre.Set

// versionSuffix matches what follows a tool name without changing the tool:
// "postgres 16", "node@20", "python3.12", "node lts".
var versionSuffix = patterns.New(`(?:[ @-]?v?\d+(?:\.\d+)*(?:\.x)?|[ -](?:lts|latest|stable|nightly|beta))+$`)

// VersionSuffix returns the version a phrase gives after a tool name
// (" 16", "@20"), or "".
func VersionSuffix(phrase string) string { return versionSuffix().FindString(phrase) }

// toolNouns are words that may trail a tool name without changing it.
var toolNouns = []string{" editor", " ide", " cli", " db", " database", " server", " runtime", " ci", " ci/cd", " cache", " workspaces", " monorepo", " sdk"}

// LookupTool finds the tool a lowercase noun phrase names, if the phrase is
// nothing but a tool name with an optional version or a generic trailing
// noun.
func LookupTool(phrase string) (*Tool, bool) {
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
			if t, ok := LookupTool(base); ok {
				return t, true
			}
		}
	}
	return nil, false
}

// ToolNames returns every name and alias of the tools that can fill
// category, lowercase.
func ToolNames(category string) []string {
	var out []string
	for _, t := range toolTable {
		if slices.Contains(t.Categories, category) {
			out = append(out, t.Name)
			out = append(out, t.Aliases...)
		}
	}
	return out
}

// Distinctive reports whether a tool's name, met in running text, names
// the tool: "uv", "nx" and "pnpm" do, "go" does not ("go ahead"), so a
// two-letter name counts only when it is no English word.
func Distinctive(name string) bool {
	switch len(name) {
	case 0, 1:
		return false
	case 2:
		return !slices.Contains(twoLetterWords, name)
	}
	return true
}

// twoLetterWords are the English words of two letters a tool's name could
// be mistaken for.
var twoLetterWords = []string{"am", "an", "as", "at", "be", "by", "do", "go", "he", "if", "in", "is", "it", "me", "my", "no", "of", "oh", "ok", "on", "or", "so", "to", "up", "us", "we"}

// PrimaryToolNames returns every name and alias, lowercase, of the tools
// whose usual reading is category: "yarn" for the package manager, not
// "bun", which is a runtime as often.
func PrimaryToolNames(category string) []string {
	var out []string
	for _, t := range toolTable {
		if t.Categories[0] == category {
			out = append(out, t.Name)
			out = append(out, t.Aliases...)
		}
	}
	return out
}

// PickCategory chooses the category t fills in a sentence: the one it
// shares with the other tool named beside it ("from node to bun"), else
// the hint from the verb or slot ("deploy to AWS", "our package manager is
// bun"), else its usual reading.
func PickCategory(t *Tool, other *Tool, hint string) string {
	if other != nil {
		for _, c := range t.Categories {
			if slices.Contains(other.Categories, c) {
				return c
			}
		}
	}
	if hint != "" && slices.Contains(t.Categories, hint) {
		return hint
	}
	return t.Categories[0]
}
