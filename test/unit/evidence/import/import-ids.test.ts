import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  derivedScanId,
  derivedViolationId,
  pulledScanId,
  pulledViolationId,
} from '../../../../src/main/evidence/import/import-ids';
import { Id } from '../../../../src/shared/api/common';

// Known answers computed independently (Python: the first 130 bits of SHA-256 as one big integer,
// five bits per Crockford character).
const USER = 'usr_01JD0000000000000000000000';

describe('import ids', () => {
  it('are scan_/vio_ + 26 Crockford characters of SHA-256("scandesk.import.v1\\0" + user + "\\0" + id)', () => {
    expect(derivedScanId(USER, 'scan_01JD2Q8Z7Y6X5W4V3T2S1R0QPN')).toBe('scan_MZMY2QV6J8XGY7X08VJ5J181HG');
    expect(derivedViolationId(USER, 'vio_01JD2Q8Z7Y6X5W4V3T2S1R0QPN')).toBe('vio_RADJJNGHYW28HM03GJ93CHXGEF');
    expect(derivedScanId('usr_A', 'x')).toBe('scan_MEVMAV76T12PG9GWK4CW212BBF');
    expect(derivedScanId('usr_B', 'x')).toBe('scan_87N0XH1QRCXZKB3G6AMN3CHWW8');
    // UTF-8, not UTF-16 code units.
    expect(derivedScanId('usr_Aé', '漢')).toBe('scan_CFSFT37QYK5RV5TEKRN0RF2HYK');
  });

  it('have the shape of the ids the server makes, and fit the id rule', () => {
    for (const id of [derivedScanId(USER, 'a'), derivedViolationId(USER, 'b'), derivedScanId('', '')]) {
      expect(id).toMatch(/^(scan|vio)_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(new Ajv({ strict: false }).validate(Id, id)).toBe(true);
    }
  });

  it('depend on the user, the id, and where one ends and the other begins', () => {
    expect(derivedScanId('usr_A', 'x')).not.toBe(derivedScanId('usr_B', 'x'));
    expect(derivedScanId('usr_A', 'x')).not.toBe(derivedScanId('usr_A', 'y'));
    expect(derivedScanId('usr_Ab', 'c')).not.toBe(derivedScanId('usr_A', 'bc'));
    expect(derivedScanId('usr_A', 'x')).toBe(derivedScanId('usr_A', 'x'));
  });

  it('of pulled scans are SHA-256("scandesk.sync.v1\\0" + remote + "\\0" + id): never an import\'s, one per remote', () => {
    expect(pulledScanId('remote-team', 'up-1')).toBe('scan_9J07NN1BE5ZT5S1QBWJ0XMF640');
    expect(pulledViolationId('remote-team', 'v-1')).toBe('vio_6ERZFY7RDZ3TGPPGR8C6G7E92A');
    expect(pulledScanId('remote-team', 'x')).not.toBe(derivedScanId('remote-team', 'x'));
    expect(pulledScanId('remote-a', 'x')).not.toBe(pulledScanId('remote-b', 'x'));
    expect(new Ajv({ strict: false }).validate(Id, pulledScanId('r', 'x'))).toBe(true);
  });

  it("of pulled scans keep a ULID's time in front, so that a remote's order is the order they are stored in", () => {
    expect(pulledScanId('remote-team', 'scan_01JD2Q8Z7Y6X5W4V3T2S1R0QPN')).toBe('scan_01JD2Q8Z7YCRVRQ3WXA5EC4KV0');
    expect(pulledViolationId('remote-team', 'vio_01JD2Q8Z7Y6X5W4V3T2S1R0QPN')).toBe('vio_01JD2Q8Z7YZBVC4AAMW527PEAA');
    const earlier = pulledScanId('remote-team', 'scan_01JD2Q8Z7Y6X5W4V3T2S1R0QPN');
    const later = pulledScanId('remote-team', 'scan_01JD2Q8Z7Z0000000000000000');
    expect(earlier < later).toBe(true);
    expect(pulledScanId('remote-a', 'scan_01JD2Q8Z7Y6X5W4V3T2S1R0QPN')).not.toBe(earlier);
    // Not a ULID (a lowercase letter, too short, a time past 48 bits): the whole hash.
    for (const id of ['scan_01jd2q8z7y6x5w4v3t2s1r0qpn', 'scan_01JD2Q8Z7Y', 'scan_81JD2Q8Z7Y6X5W4V3T2S1R0QPN']) {
      expect(pulledScanId('remote-team', id).slice(5, 15)).not.toBe(id.slice(5, 15));
    }
    expect(new Ajv({ strict: false }).validate(Id, earlier)).toBe(true);
  });
});
