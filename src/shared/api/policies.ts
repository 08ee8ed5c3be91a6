import { Type, type Static } from 'typebox';
import { Label, TokenCount } from './common';

const Limit = Type.Union([TokenCount, Type.Null()]);
const Names = Type.Array(Label, { maxItems: 1000 });

export const Policy = Type.Object(
  {
    max_tokens_per_scan: Limit,
    max_tokens_per_request: Limit,
    allowed_tools: Type.Union([Names, Type.Null()], { description: 'null: any tool' }),
    blocked_tools: Names,
    blocked_actions: Names,
  },
  { additionalProperties: false },
);
export type Policy = Static<typeof Policy>;

export const EMPTY_POLICY: Policy = {
  max_tokens_per_scan: null,
  max_tokens_per_request: null,
  allowed_tools: null,
  blocked_tools: [],
  blocked_actions: [],
};
