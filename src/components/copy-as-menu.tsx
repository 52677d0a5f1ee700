import { Button, Menu } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { toCurl, type CopyAsCommands } from '@/lib/text/copy-as';
import { notify } from './feedback/notify';

export type CopyAsMenuProps = {
  /**
   * Built when the menu opens, from what the form holds now: the request the button next to it
   * would send. Undefined when the form cannot make one yet (say so with `unavailableReason`).
   */
  commands: () => CopyAsCommands | undefined;
  unavailableReason?: string;
  /** The button's text where several menus share a screen ("Copy prepare as…"). */
  label?: string;
};

/**
 * "Copy as…" next to an action (docs/design-system.md §Copy as): the same request as curl, or as
 * the Canton console command, on the clipboard.
 */
export function CopyAsMenu({ commands, unavailableReason, label = 'Copy as…' }: CopyAsMenuProps) {
  const clipboard = useClipboard({ timeout: 1500 });
  // Built when the menu opens, not on every render of a large form; a builder that cannot make a
  // request from half-typed values counts as "nothing yet", never as a crash of the form.
  const [built, setBuilt] = useState<CopyAsCommands | undefined>(undefined);
  const build = (): CopyAsCommands | undefined => {
    try {
      return commands();
    } catch {
      return undefined;
    }
  };
  const copy = (what: 'curl' | 'canton') => {
    const fresh = build();
    if (fresh === undefined) {
      notify.error(unavailableReason ?? 'Fill in the form first.', 'Nothing to copy yet');
      return;
    }
    const text =
      what === 'curl' ? toCurl(fresh.request, window.location.origin) : fresh.cantonConsole;
    if (text === undefined) return;
    clipboard.copy(text);
    notify.success(what === 'curl' ? 'Copied as curl' : 'Copied as a Canton console command');
  };
  return (
    <Menu
      position="bottom-end"
      withinPortal
      onOpen={() => {
        setBuilt(build());
      }}
    >
      <Menu.Target>
        <Button variant="subtle" color="gray" leftSection={<IconCopy size={16} aria-hidden />}>
          {clipboard.copied ? 'Copied' : label}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item
          onClick={() => {
            copy('curl');
          }}
        >
          curl
        </Menu.Item>
        <Menu.Item
          onClick={() => {
            copy('canton');
          }}
          disabled={built !== undefined && built.cantonConsole === undefined}
        >
          Canton console
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
