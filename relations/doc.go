// Package relations is the one table of the claims credence understands:
// each relation's predicate, whether it is exclusive, the subjects it is
// said of, the nouns and cues people use for it, and the sentence that
// states it; and the taxonomy of tools that fill the tool relations. The
// extractor reads statements with it ("our package manager is pnpm"),
// recall reads prompts with it ("how should I install the dependencies?"
// needs the package manager), and statements are rendered from it.
//
// It imports only the standard library and internal/lazyre.
package relations
