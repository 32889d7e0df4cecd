import os from 'node:os';
import { expect, test } from '@playwright/test';
import { needBigLibrary, openBig, shot } from './support/big.js';

// The graph view on the ~2,000-note library (indexed once by the global setup), loaded at its largest
// limit. Measures and prints: time from opening the view to the data and to the first painted frame,
// frames delivered while the force layout runs, the worst frame, and how fast a zoom and a hover answer.
needBigLibrary();

test('graph of ~2,000 notes: first paint and interaction', async ({ page }) => {
  test.setTimeout(180_000);
  await openBig(page);
  await page.keyboard.press('Control+4');
  await expect(page.getByTestId('graph-mode')).toHaveText('Whole library');
  const summary = page.getByTestId('graph-summary');
  await expect(summary).toHaveText(/\d+ nodes/);

  // Largest limit: clear the marks, switch, and time data and first paint from the switch.
  await page.evaluate(() => performance.clearMarks());
  const t0 = await page.evaluate(() => performance.now());
  await page.getByLabel('Maximum nodes loaded').selectOption('8000');
  await expect.poll(async () => Number(((await summary.textContent()) ?? '').replace(/,/g, '').match(/^(\d+)/)?.[1] ?? 0), { timeout: 60_000 }).toBeGreaterThan(2500);
  const firstPaint = await page.waitForFunction(() => performance.getEntriesByName('loci-graph-first-paint').at(-1)?.startTime ?? null, null, { timeout: 60_000 });
  const paintMs = Math.round(((await firstPaint.jsonValue()) as number) - t0);
  const sceneMs = Math.round(((await page.evaluate(() => performance.getEntriesByName('loci-graph-scene-start').at(-1)?.startTime ?? 0)) as number) - t0);

  // Frames while the simulation runs: a blocked page would deliver few of them.
  const frames = await page.evaluate(
    () =>
      new Promise<{ frames: number; worstMs: number }>((resolve) => {
        let n = 0;
        let last = performance.now();
        let worst = 0;
        const end = last + 2000;
        const tick = (t: number) => {
          worst = Math.max(worst, t - last);
          last = t;
          n++;
          if (t < end) requestAnimationFrame(tick);
          else resolve({ frames: n, worstMs: Math.round(worst) });
        };
        requestAnimationFrame(tick);
      }),
  );

  // Interaction: a wheel zoom and a hover, each timed to the next frame.
  const box = (await page.getByTestId('graph-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const zoomMs = await page.evaluate(async () => {
    const canvas = document.querySelector('[data-testid="graph-canvas"]')!;
    const r = canvas.getBoundingClientRect();
    const start = performance.now();
    canvas.dispatchEvent(new WheelEvent('wheel', { deltaY: -300, clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true, cancelable: true }));
    await new Promise((res) => requestAnimationFrame(() => res(null)));
    return Math.round(performance.now() - start);
  });
  const hoverMs = await page.evaluate(async () => {
    const canvas = document.querySelector('[data-testid="graph-canvas"]')!;
    const r = canvas.getBoundingClientRect();
    const start = performance.now();
    for (let i = 0; i < 10; i++) canvas.dispatchEvent(new MouseEvent('mousemove', { clientX: r.left + r.width * (0.3 + i * 0.04), clientY: r.top + r.height / 2, bubbles: true }));
    await new Promise((res) => requestAnimationFrame(() => res(null)));
    return Math.round((performance.now() - start) / 10);
  });

  const text = await summary.textContent();
  console.log(
    `[graph-scale] ${process.env.LOCI_E2E_BIG_NOTES} notes indexed; ${text}; data fetched, checked and filtered ${sceneMs} ms after choosing 8,000; first paint ${paintMs} ms; ` +
      `${frames.frames} frames in 2 s during layout, worst frame ${frames.worstMs} ms; wheel zoom to next frame ${zoomMs} ms; hover hit-test ${hoverMs} ms per move; machine load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
  );
  const settledAt = Date.now();
  await expect(page.getByTestId('graph-canvas')).toHaveAttribute('data-settled', 'true', { timeout: 120_000 });
  console.log(`[graph-scale] layout settled ${Date.now() - settledAt} ms after the measurements`);
  await shot(page, 'graph-scale');
  expect(frames.frames).toBeGreaterThan(10);
});
