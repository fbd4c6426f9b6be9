import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import type { BatchRecord } from './api.js';

/** Prompt and completion tokens of each batch, as bars. */
export function TokenChart({ batches }: { batches: readonly BatchRecord[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const xs = batches.map((b) => b.index);
    const plot = new uPlot(
      {
        width: Math.min(640, box.current.clientWidth || 640),
        height: 160,
        scales: {
          x: { time: false, range: (_u, min, max) => [min - 0.6, max + 0.6] },
          y: { range: (_u, _min, max) => [0, Math.max(10, max * 1.1)] },
        },
        axes: [
          { label: 'batch', splits: () => xs, values: (_u, ticks) => ticks.map(String) },
          { label: 'tokens' },
        ],
        series: [
          {},
          {
            label: 'prompt',
            stroke: '#3b6ea5',
            fill: 'rgba(59,110,165,0.3)',
            paths: uPlot.paths.bars!({ size: [0.35], align: -1 }),
            points: { show: false },
          },
          {
            label: 'completion',
            stroke: '#c77c1e',
            fill: 'rgba(199,124,30,0.3)',
            paths: uPlot.paths.bars!({ size: [0.35], align: 1 }),
            points: { show: false },
          },
        ],
      },
      [xs, batches.map((b) => b.usage.promptTokens), batches.map((b) => b.usage.completionTokens)],
      box.current,
    );
    return () => plot.destroy();
  }, [batches]);
  return (
    <section class="tokens">
      <h2>Tokens per batch</h2>
      <div ref={box} data-testid="token-chart" />
    </section>
  );
}
