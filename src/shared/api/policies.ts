import { Type, type Static } from 'typebox';
import { DateOrDateTime, Label, TokenCount, Until } from './common';

const Limit = Type.Union([TokenCount, Type.Null()]);
/**
 * Names one policy list holds at most. Three full lists of 100-character names fit the 1 MiB JSON
 * body limit however the client encodes them (12 bytes a character when every one is written as a
 * surrogate pair of `\u` escapes): 3 × 250 × 1,203 bytes ≈ 0.9 MB (docs/contract/limits.md#requests).
 */
export const POLICY_LIST_MAX_ITEMS = 250;

const Names = Type.Array(Label, { maxItems: POLICY_LIST_MAX_ITEMS });

export const Policy = Type.Object(
  {
    max_tokens_per_scan: Limit,
    max_tokens_per_request: Limit,
    allowed_tools: Type.Union([Names, Type.Null()], { description: 'null: any tool' }),
    blocked_tools: Names,
    blocked_actions: Names,
  },
  {
    additionalProperties: false,
    examples: [
      {
        max_tokens_per_scan: 200_000,
        max_tokens_per_request: 20_000,
        allowed_tools: null,
        blocked_tools: ['curl'],
        blocked_actions: ['shell'],
      },
    ],
  },
);
export type Policy = Static<typeof Policy>;

export const EMPTY_POLICY: Policy = {
  max_tokens_per_scan: null,
  max_tokens_per_request: null,
  allowed_tools: null,
  blocked_tools: [],
  blocked_actions: [],
};

/** What a policy flags over some scans: flagged scans, violations, by rule and by severity. */
export const PolicyImpact = Type.Object({
  flagged_scans: Type.Integer({ minimum: 0 }),
  violations: Type.Integer({ minimum: 0 }),
  by_rule: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
  by_severity: Type.Record(Type.String(), Type.Integer({ minimum: 0 })),
});
export type PolicyImpact = Static<typeof PolicyImpact>;

/** The longest range one preview or re-evaluation covers. */
export const IMPACT_MAX_DAYS = 366;

const ImpactRange = {
  since: DateOrDateTime,
  until: Until,
};

/** `POST /v1/organizations/:id/policy/preview` (extension): a draft policy over stored scans. */
export const PolicyPreviewBody = Type.Object({ policy: Policy, ...ImpactRange }, { additionalProperties: false });
export type PolicyPreviewBody = Static<typeof PolicyPreviewBody>;

/** `POST /v1/organizations/:id/policy/reevaluate` (extension): the saved policy applied to stored scans. */
export const ReevaluateBody = Type.Object(ImpactRange, { additionalProperties: false });
export type ReevaluateBody = Static<typeof ReevaluateBody>;

export const PolicyComparison = Type.Object({
  /** Submitted scans of the range: the ones a policy applies to. */
  scanned: Type.Integer({ minimum: 0 }),
  /** Imported scans of the range: they keep the violations their package holds. */
  imported_skipped: Type.Integer({ minimum: 0 }),
  /** What is stored now. */
  current: PolicyImpact,
  /** What the policy would store (preview) or stored (re-evaluation). */
  policy: PolicyImpact,
  /** Scans whose violations differ between the two. */
  changed_scans: Type.Integer({ minimum: 0 }),
});
export type PolicyComparison = Static<typeof PolicyComparison>;
