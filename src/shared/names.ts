// Kept free of TypeBox so that clients (the CLI) can check names without building schemas.

export const NAME_MAX_LENGTH = 100;

/** At least one character that is not a space, and no control characters (SPEC.md §4). */
export const NAME_PATTERN = '^[^\\p{Cc}]*[^\\p{Cc}\\s][^\\p{Cc}]*$';

export const NAME_MESSAGE = 'must not be only spaces or contain control characters';
