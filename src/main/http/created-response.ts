import type { TSchema } from 'typebox';

/**
 * A 201's response schema: the created resource, with the `Location` header that names where it
 * can be read, which the document then lists (and tools that follow links, Schemathesis's stateful
 * phase among them, use). The header is for the document only; the handler sets it.
 */
export const createdResponse = <S extends TSchema>(schema: S): S =>
  ({
    ...schema,
    headers: { Location: { type: 'string', description: 'The path at which the created resource can be read' } },
  }) as S;
