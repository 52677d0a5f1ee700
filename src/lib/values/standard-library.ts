/**
 * Names of the packages the Daml SDK puts into every DAR: the standard library and the primitive
 * types (`daml-prim`, `daml-stdlib`, `ghc-stdlib` and their one-module `…-DA-*`/`…-GHC-*` packages)
 * and Daml Script, which DARs with tests bring along. Decided by package name, the one thing the
 * metadata says about where a package comes from.
 */
const STANDARD_LIBRARY_NAMES = new Set([
  'daml-prim',
  'daml-stdlib',
  'ghc-stdlib',
  'ghc-prim',
  'daml-script',
  'daml3-script',
]);
const STANDARD_LIBRARY_PREFIXES = ['daml-prim-', 'daml-stdlib-', 'ghc-stdlib-', 'ghc-prim-'];

export function isStandardLibrary(name: string | undefined): boolean {
  if (name === undefined) return false;
  return (
    STANDARD_LIBRARY_NAMES.has(name) ||
    STANDARD_LIBRARY_PREFIXES.some((prefix) => name.startsWith(prefix))
  );
}
