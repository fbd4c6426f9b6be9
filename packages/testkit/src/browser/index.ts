// `@skein/testkit/browser`: headless Chromium for browser tests, from the machine's own binary
// (`playwright-core`, an optional peer dependency, drives it), and the one switch that skips them.

export { BrowserTestSetupError } from './browser-test-setup-error.js';
export { launchChromium, skipBrowserTests } from './launch-chromium.js';
