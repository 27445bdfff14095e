import { afterPaint } from '../widgets/shared/afterPaint';
import { askForStepShell } from './shared/api/ahead';

/**
 * The app's entry (index.html). A step page comes with the step's shell prerendered
 * (src/shared/shell.ts), and the browser should paint that shell before it evaluates the app's
 * modules (React, Chakra, the router: ~750 KB): a module script that has already arrived (from the
 * cache, or over a fast connection) runs as soon as the document is parsed, before the first frame,
 * and the shell then waited for all of it (issue 14, the steps' first paint). So the app
 * (src/main.tsx with its imports, which the page preloads: scripts/prerender.ts) is evaluated after
 * the next frame (`afterPaint`: a hidden tab, which draws no frames, waits 100 ms at most).
 */
const shell = document.getElementById('shell');
// A step page asks for its request now, while its scripts are still arriving (src/shared/api/ahead.ts).
if (shell) askForStepShell(shell);
void (shell ? afterPaint() : Promise.resolve()).then(() => import('./main'));
