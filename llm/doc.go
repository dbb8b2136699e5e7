// Package llm is the consolidation agent's optional language model: a client
// for any OpenAI-compatible chat endpoint (OpenAI, Ollama, LM Studio, vLLM)
// through go-openai, asking for JSON-schema structured output for the three
// judgements consolidation needs — per-episode fact extraction with
// predict-calibrate actions, synthesis of a candidate belief from a cluster
// of episodes (and re-synthesis for revision and split), and the four-way
// SUPPORTS / CONTRADICTS / PARTIAL / IRRELEVANT classification.
//
// It owns the prompts, the schemas, validation of what comes back (a reply
// that does not fit the schema is ErrMalformed), retries with exponential
// backoff on 429, 5xx and timeouts, the per-call time limit, and token
// counting (every call reports its Usage, failed attempts included, so a
// cycle can record what it spent).
//
// llm imports go-openai and the standard library only. It must not import
// store, belief, consolidate, the agent or the hooks: lifecycle decisions are
// never made here, and the hook hot path never links it.
package llm
