import { describe, expect, it } from 'vitest';
import { candidatesToAdd } from '../../../../../src/renderer/src/features/organizations/member-candidates';

describe('candidatesToAdd', () => {
  it('offers everyone not in already, by name, one name twice in id order', () => {
    const users = [
      { id: 'usr_c', name: 'Zoë' },
      { id: 'usr_b', name: 'ann' },
      { id: 'usr_a', name: 'Bob' },
      { id: 'usr_9', name: 'ann' },
    ];
    expect(candidatesToAdd(users, ['usr_a'])).toEqual([
      { id: 'usr_9', name: 'ann' },
      { id: 'usr_b', name: 'ann' },
      { id: 'usr_c', name: 'Zoë' },
    ]);
    expect(
      candidatesToAdd(
        users,
        users.map((user) => user.id),
      ),
    ).toEqual([]);
  });
});
