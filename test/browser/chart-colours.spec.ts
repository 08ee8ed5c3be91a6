import type { Locator, Page } from '@playwright/test';
import { expect, signIn, test } from './fixtures';

// Tools are told apart by colour: no two tools on one chart share a fill, in the light and the
// dark theme, and a tool's fill is the same in the stacked chart and the bar chart.

const NOW = new Date('2026-11-20T12:00:00.000Z');

/** Each element's computed fill (custom properties and light-dark() resolved), once all are drawn. */
async function fills(locator: Locator): Promise<string[]> {
  let found: string[] = [];
  await expect(async () => {
    found = await locator.evaluateAll((elements) => elements.map((element) => getComputedStyle(element).fill));
    expect(found.length).toBeGreaterThan(0);
    expect(found).not.toContain('');
  }).toPass({ timeout: 5000 });
  return found;
}

async function toolFills(page: Page): Promise<{ areas: Map<string, string>; bars: Map<string, string> }> {
  const tokens = page.getByRole('figure', { name: 'Tokens over time by tool' });
  await expect(tokens.locator('.recharts-area-area').first()).toBeVisible();
  const labels = await tokens.locator('.recharts-legend-item').allTextContents();
  const areaFills = await fills(tokens.locator('.recharts-area-area'));
  expect(areaFills).toHaveLength(labels.length);
  const areas = new Map(labels.map((label, i) => [label.trim(), areaFills[i]!]));
  areas.delete('other');

  const top = page.getByRole('figure', { name: 'Top tools by tokens' });
  await expect(top.locator('.bar-chart-bar').first()).toBeVisible();
  const barFills = await fills(top.locator('.bar-chart-bar'));
  // The bars are the data table's first rows, in its order.
  const names = (await top.locator('tbody th').allTextContents()).slice(0, barFills.length);
  expect(names).toHaveLength(barFills.length);
  return { areas, bars: new Map(names.map((name, i) => [name.trim(), barFills[i]!])) };
}

for (const scheme of ['light', 'dark'] as const) {
  test(`no two tools share a colour on a chart, and a tool has one colour in both charts (${scheme}) @zones`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.clock.setFixedTime(NOW);
    await signIn(page, '/?range=90d');
    const { areas, bars } = await toolFills(page);
    expect(areas.size).toBeGreaterThanOrEqual(5);
    expect(bars.size).toBeGreaterThanOrEqual(8);
    expect(new Set(areas.values()).size, JSON.stringify([...areas])).toBe(areas.size);
    expect(new Set(bars.values()).size, JSON.stringify([...bars])).toBe(bars.size);
    for (const [tool, fill] of areas) expect(bars.get(tool), tool).toBe(fill);
  });
}

test('a tool keeps its colour when the range shows other tools beside it @zones', async ({ page }) => {
  await page.clock.setFixedTime(NOW);
  const colours = new Set<string>();
  for (const range of ['24h', '7d', '90d']) {
    await signIn(page, `/?range=${range}`);
    const { bars } = await toolFills(page);
    expect(bars.get('ChatGPT')).toBeTruthy();
    colours.add(bars.get('ChatGPT')!);
  }
  expect(colours.size).toBe(1);
});
