package extract

import "testing"

// TestSession12Shapes checks one statement per reading added in session
// 12 (the losses of the retired scenario set scenarios_check10, and
// dev2026m written before the tuning): each case fails when its
// mechanism is taken out. The utterances are neither the scenario set's
// nor dev2026m's; they are other sentences of the same shapes, with
// near misses that must give nothing.
func TestSession12Shapes(t *testing.T) {
	for _, c := range []struct {
		recent     []string
		text, want string
	}{
		// a kind of tool named by a noun with a digit (slotIsRe, slotBare)
		{nil, "l10n is lingui, catalogs in src/locales", "uses_i18n lingui"},
		{nil, "our i18n is formatjs", "uses_i18n react-intl"},
		{nil, "i18n is broken on the settings page", ""},
		// "'s" for "is" after a kind of tool (categoryIs)
		{nil, "formatting's handled by prettier", "uses_formatter prettier"},
		{nil, "the bundler's vite", "uses_bundler vite"},
		{nil, "ci's config is a mess", ""},
		{nil, "the linter's output is noisy", ""},
		// a kind of work done with a named thing the tool table does not
		// know (managedWith, toolShaped)
		{nil, "our packages are managed with pip-tools here", "uses_package_manager pip-tools"},
		{nil, "deps are pinned with poetry2nix", "uses_package_manager poetry2nix"},
		{nil, "deps are managed by hand", "should keep deps managed by hand"},
		{nil, "deps are managed in pyproject.toml", "should keep deps managed in pyproject.toml"},
		{nil, "deps are handled by Renovate", "should keep deps handled by renovate"},
		// dates and logging libraries named by their kind (stackNouns,
		// kinCategory)
		{nil, "dates are handled with luxon", "uses_date_library luxon"},
		{nil, "dates are a pain in this codebase", ""},
		{nil, "logging is pino", "uses_logger pino"},
		{nil, "logging is datadog", "uses_observability datadog"},
		{nil, "logging is too noisy", ""},
	} {
		t.Run(c.text, func(t *testing.T) {
			if got := shapeOf(c.text, c.recent); got != c.want {
				t.Errorf("ExtractWith(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}
