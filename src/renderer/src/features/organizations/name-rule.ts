import { NAME_MAX_LENGTH, NAME_PATTERN } from '../../../../shared/names';

const pattern = new RegExp(NAME_PATTERN, 'u');

/**
 * The server's name rule (docs/contract/api.md#basics), checked before sending so the person learns at once; the
 * server still has the last word and its 400 message is shown too. Null when the name is fine.
 */
export function nameProblem(name: string): string | null {
  const length = [...name].length;
  if (length === 0 || name.trim() === '') return 'Enter a name.';
  if (length > NAME_MAX_LENGTH) return `The name is too long: at most ${NAME_MAX_LENGTH} characters (${length} now).`;
  if (!pattern.test(name))
    return 'The name must not contain control characters (tabs, line breaks) or text-direction overrides.';
  return null;
}
