package llm

import (
	"fmt"
	"strings"
)

// The prompts follow the seeds: Plast Mem's extraction rules with Nemori's
// predict-calibrate actions, Engram's synthesis and classification.

const extractionBase = `You extract lasting knowledge from one episode of a developer's session with a coding assistant.

Extract:
1. Facts about the user (preferences, personal information, tools they use).
2. Facts about the project ("project" subject): tools, deployment, conventions.
3. Behavioral rules for the assistant, with subject "assistant" and predicate should, should_not, should_when_<context> or responds_to_<trigger>_with.

Rules:
1. Only long-term facts. Ignore transient states ("I'm tired now"), questions, hypotheticals and hedges ("we might switch to X").
2. Only what the user states or clearly confirms; never the assistant's suggestions.
3. Use subject-predicate-object triples and one natural sentence per fact.
4. Recommended predicates (create others when needed): likes, dislikes, prefers, lives_in, works_at, age_is, name_is, uses_package_manager, uses_runtime, uses_language, uses_test_runner, deploys_with, uses_database, should, should_not.

Predict-calibrate: the existing beliefs listed below are what we expected. For each fact say:
- "new": no existing belief covers it (belief_id empty);
- "reinforce": an existing belief says the same thing (its belief_id);
- "invalidate": an existing belief is no longer true because of this episode (its belief_id). Several values of a predicate can coexist (liking several things); invalidate only when the new information replaces the old, as when someone moves or switches tools.

Return {"facts": [], "surprise_explanation": ""} when there is nothing lasting.`

const extractionDeep = `

This episode diverged from expectations (surprise %.2f of 1.0). Read it thoroughly: extract every lasting fact, including ones implied by corrections, and check each existing belief it may invalidate.`

const extractionExplain = ` Also fill surprise_explanation with one or two sentences: why was this surprising, and which expectation did it challenge?`

func extractionPrompt(surprise float64) string {
	p := extractionBase
	if surprise >= DeepSurprise {
		p += fmt.Sprintf(extractionDeep, surprise)
	}
	if surprise >= ExplainSurprise {
		p += extractionExplain
	}
	return p
}

func extractionInput(req ExtractRequest) string {
	var b strings.Builder
	b.WriteString("Existing beliefs:\n")
	if len(req.Related) == 0 {
		b.WriteString("(none)\n")
	}
	for _, k := range req.Related {
		fmt.Fprintf(&b, "- %s: %s (%s, %s, %s; confidence %.2f)\n", k.ID, k.Statement, k.Subject, k.Predicate, k.Object, k.Confidence)
	}
	b.WriteString("\nEpisode:\n")
	b.WriteString(cut(req.Episode, 8000))
	return b.String()
}

const synthesisPrompt = `You consolidate a cluster of similar episodes from a developer's sessions with a coding assistant into one belief.

Write one generalized, falsifiable statement that every episode supports, plus its structured fields (subject, predicate, object, context, timeframe, kind). Use subject "assistant" and kind "guideline" for rules about how the assistant should behave. Do not infer anything beyond the evidence. If the episodes share no lasting generalization, set coherent to false and leave the other fields empty.`

const revisionPrompt = `Evidence has turned against a belief about a developer. Re-synthesize it: write the one falsifiable statement that the evidence now supports, with its structured fields. Do not infer beyond the evidence. Set coherent to true.`

const splitPrompt = `A belief about a developer holds in some contexts and not in others. Split it into two or more context-specific beliefs, each a falsifiable statement with its structured fields and the context where it holds, and give each the share (0 to 1, summing to about 1) of the evidence that backs it.`

const classificationPrompt = `You judge how new evidence bears on an existing belief about a developer.

Answer with one label:
- SUPPORTS: the evidence confirms the belief.
- CONTRADICTS: the evidence shows the belief is false or no longer true.
- PARTIAL: it holds in some contexts but not others, or only in part.
- IRRELEVANT: it is about something else.

Also give support (-1 refutes … 1 confirms) and reliability (0 … 1, how directly the evidence bears on the belief), and a short reason.`
