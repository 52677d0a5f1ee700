/// <reference types="vite/client" />

// Declaration merging into Vite's own interfaces is the documented way to type import.meta.env.
/* eslint-disable @typescript-eslint/consistent-type-definitions */
interface ImportMetaEnv {
  readonly VITE_API_BASE_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
