package logfile

import (
	"context"
	"log/slog"
)

// componentKey is the attribute that names the component writing a line.
const componentKey = "component"

// componentHandler writes each record with exactly one component
// attribute. A logger derived with With("component", name) renames its
// component instead of adding a second key beside its parent's: the agent
// hands its consolidator, promoter and sync loop loggers named that way,
// and their lines in agent.log must say "component":"consolidate" once,
// not "component":"agent","component":"consolidate" (a JSON reader keeps
// one of the two, and which one depends on the reader).
type componentHandler struct {
	base      slog.Handler // the file's handler, with no attributes
	component string
	// derive replays the With and WithGroup calls made since the handler
	// was built, so a new component can be put back in front of them.
	derive []func(slog.Handler) slog.Handler
	groups int // open groups: a component inside one is an ordinary attribute
	h      slog.Handler
}

// newComponentLogger returns a logger writing to base with the component
// attribute first on every line.
func newComponentLogger(base slog.Handler, component string) *slog.Logger {
	return slog.New(&componentHandler{base: base, component: component,
		h: base.WithAttrs([]slog.Attr{slog.String(componentKey, component)})})
}

func (c *componentHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return c.h.Enabled(ctx, level)
}

func (c *componentHandler) Handle(ctx context.Context, r slog.Record) error {
	return c.h.Handle(ctx, r)
}

func (c *componentHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	component, rest := c.component, attrs
	if c.groups == 0 {
		rest = make([]slog.Attr, 0, len(attrs))
		for _, a := range attrs {
			if a.Key == componentKey {
				component = a.Value.String()
			} else {
				rest = append(rest, a)
			}
		}
	}
	next := &componentHandler{base: c.base, component: component, groups: c.groups, h: c.h,
		derive: append(c.derive[:len(c.derive):len(c.derive)], func(h slog.Handler) slog.Handler { return h.WithAttrs(rest) })}
	if component != c.component {
		next.h = c.base.WithAttrs([]slog.Attr{slog.String(componentKey, component)})
		for _, d := range c.derive {
			next.h = d(next.h)
		}
	}
	next.h = next.h.WithAttrs(rest)
	return next
}

func (c *componentHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return c
	}
	return &componentHandler{base: c.base, component: c.component, groups: c.groups + 1, h: c.h.WithGroup(name),
		derive: append(c.derive[:len(c.derive):len(c.derive)], func(h slog.Handler) slog.Handler { return h.WithGroup(name) })}
}
