package llm

import "encoding/json"

// The structured-output schemas. Strict mode (OpenAI's, and the servers
// that follow it) needs every property required and no extra ones, so
// optional values are empty strings rather than absent.

var extractionSchema = schema{name: "semantic_extraction", doc: json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["facts", "surprise_explanation"],
  "properties": {
    "facts": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["subject", "predicate", "object", "fact", "kind", "negated", "action", "belief_id"],
        "properties": {
          "subject":   {"type": "string", "description": "user, project, assistant, or a lowercased name"},
          "predicate": {"type": "string", "description": "snake_case, e.g. prefers, lives_in, uses_package_manager, should, should_not"},
          "object":    {"type": "string", "description": "the value, lowercased unless a proper name"},
          "fact":      {"type": "string", "description": "one natural-language sentence"},
          "kind":      {"type": "string", "enum": ["fact", "guideline"]},
          "negated":   {"type": "boolean", "description": "true when the statement says the triple does not hold"},
          "action":    {"type": "string", "enum": ["new", "reinforce", "invalidate"]},
          "belief_id": {"type": "string", "description": "the existing belief reinforced or invalidated; empty for new"}
        }
      }
    },
    "surprise_explanation": {"type": "string", "description": "why the episode was surprising; empty unless asked"}
  }
}`)}

var candidateProps = `
    "statement": {"type": "string", "description": "one falsifiable sentence, nothing beyond the evidence"},
    "subject":   {"type": "string"},
    "predicate": {"type": "string"},
    "object":    {"type": "string"},
    "context":   {"type": "string", "description": "when or where it holds; empty if always"},
    "timeframe": {"type": "string", "description": "e.g. since 2024; empty if unknown"},
    "kind":      {"type": "string", "enum": ["fact", "guideline"]}`

var synthesisSchema = schema{name: "belief_synthesis", doc: json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["coherent", "statement", "subject", "predicate", "object", "context", "timeframe", "kind"],
  "properties": {
    "coherent": {"type": "boolean", "description": "false when the episodes share no lasting, falsifiable generalization"},` +
	candidateProps + `
  }
}`)}

var splitSchema = schema{name: "belief_split", doc: json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["children"],
  "properties": {
    "children": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["statement", "subject", "predicate", "object", "context", "timeframe", "kind", "share"],
        "properties": {` + candidateProps + `,
          "share": {"type": "number", "description": "fraction of the evidence this child inherits, 0 to 1"}
        }
      }
    }
  }
}`)}

var classificationSchema = schema{name: "belief_classification", doc: json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["label", "support", "reliability", "reason"],
  "properties": {
    "label":       {"type": "string", "enum": ["SUPPORTS", "CONTRADICTS", "PARTIAL", "IRRELEVANT"]},
    "support":     {"type": "number", "description": "-1 (refutes) to 1 (confirms)"},
    "reliability": {"type": "number", "description": "0 to 1: how directly the evidence bears on the belief"},
    "reason":      {"type": "string"}
  }
}`)}
