import { fileURLToPath } from 'node:url';

/**
 * The statboard package's folder (`apps/statboard`). This module sits directly in `src/`, and `npm start` runs the
 * bundle made of the sources directly in `dist/` (`scripts/build.mjs`): from either, the folder above is the
 * package's. Files the service reads at run time are found from here, never from the module that reads them,
 * whose place differs between the sources and the bundle.
 */
export const APP_ROOT = fileURLToPath(new URL('../', import.meta.url));
