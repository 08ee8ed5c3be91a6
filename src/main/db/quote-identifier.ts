/** A name as an SQL identifier in double quotes, for the statements written as text (both engines). */
export const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;
