// Runs the graph layout off the page's thread: ticks as fast as it can, posting positions after each
// tick (the page draws the latest on its next frame), and says when the layout has settled.
import { createLayout, type LayoutInput } from './graph-layout.js';

let running = true;
self.onmessage = (e: MessageEvent<{ type: 'start'; input: LayoutInput } | { type: 'stop' }>) => {
  if (e.data.type === 'stop') {
    running = false;
    return;
  }
  const layout = createLayout(e.data.input);
  const n = e.data.input.kind.length;
  const loop = () => {
    if (!running) return;
    // A few ticks per message keeps messaging cheap on big graphs.
    let alive = true;
    for (let k = 0; k < (n > 2000 ? 2 : 1) && alive; k++) alive = layout.step();
    const buf = layout.positions(new Float32Array(2 * n));
    (self as unknown as Worker).postMessage({ type: alive ? 'tick' : 'end', positions: buf }, [buf.buffer]);
    if (alive) setTimeout(loop, 0);
  };
  loop();
};
