import { JWT_PORT } from '../../playwright.config';

/** The console whose embedded sandbox runs with `--auth jwt` (started by playwright.config.ts). */
export const JWT_CONSOLE_URL = `http://127.0.0.1:${String(JWT_PORT)}`;
