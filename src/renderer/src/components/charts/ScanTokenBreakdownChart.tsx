import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCompact, formatCount } from '../../lib/format';
import { valueTicks } from '../../lib/value-ticks';

/** Token types of one scan as horizontal bars; the caller shows the same numbers as text. */
export function ScanTokenBreakdownChart({ rows }: { rows: { name: string; tokens: number }[] }) {
  const ticks = valueTicks(Math.max(0, ...rows.map((row) => row.tokens)));
  return (
    <ResponsiveContainer width="100%" height={Math.max(80, rows.length * 36 + 24)}>
      <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 8 }}>
        <XAxis
          type="number"
          tickFormatter={formatCompact}
          domain={[0, ticks.at(-1)!]}
          ticks={ticks}
          interval={0}
          stroke="var(--muted)"
        />
        <YAxis type="category" dataKey="name" width={72} stroke="var(--muted)" />
        <Tooltip
          formatter={(value) => [formatCount(Number(value)), 'tokens']}
          contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)' }}
        />
        <Bar dataKey="tokens" fill="var(--accent)" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
