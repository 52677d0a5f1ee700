/**
 * A Mantine `Button`'s `loading` prop for a busy state: `true` while busy, else absent.
 *
 * With a boolean, Mantine keeps a `Transition` mounted for the loader, and when `loading` turns
 * false it slides the loader out starting in an animation frame that calls `flushSync`. React
 * then runs everything it has pending in that frame's task: when the action's result mounts in
 * the same commit (the composer's Preview and Submit drawing a 1,000-node transaction), its
 * effects and the layout they force joined one 63–84 ms task (issue 29). Absent, the loader
 * unmounts with nothing scheduled; the label still fades back in by CSS.
 */
export function buttonBusy(isBusy: boolean): true | undefined {
  return isBusy ? true : undefined;
}
