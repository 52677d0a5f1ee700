import { Fragment } from 'react';
import { useClipboard } from '@mantine/hooks';
import { identifierText } from '@/lib/text/display-text';
import { breakAfterSeparators, shortenQualifiedName } from '@/lib/text/format';
import classes from './identifier.module.css';
import { useIdentifierHref, type IdentifierKind } from './identifier-links';
import { StrokeIcon } from './stroke-icon';
import { PlainLink } from './plain-link';

export type IdentifierProps = {
  value: string;
  /** What the value is, for the copy button's accessible name ("Copy participant id"). */
  label: string;
  /**
   * Show `hint::1220ab…cd` with the full id on hover. The default: long ids are shortened
   * everywhere; pass `false` where the full id is the point (a detail page's heading).
   */
  isShortened?: boolean;
  /** Links the id to its page (party, package) when the app provides one. */
  kind?: IdentifierKind;
  /**
   * `qualified-name`: a template or interface id (`<package id>:<module>:<entity>`), shortened in
   * its package id only and wrapping only after its `:` and `.`, so a narrow column shows
   * `f36ffe…dfd6:` / `Demo.Iou:Iou` rather than one character per line.
   */
  shape?: 'unique-identifier' | 'qualified-name';
};

/**
 * The one way the console shows a long ledger identifier (party, participant, package, contract
 * id): shortened, the full id on hover, a copy button, and a link to its page. Hidden and bidi
 * characters are shown as `⟨U+202E⟩` and the id is isolated (`<bdi>`), so an id cannot pass for
 * another or reorder the text around it; the copy button still copies the id as it is.
 */
export function Identifier({
  value,
  label,
  isShortened = true,
  kind,
  shape = 'unique-identifier',
}: IdentifierProps) {
  const href = useIdentifierHref(kind, value);
  const clipboard = useClipboard({ timeout: 1500 });
  const isQualifiedName = shape === 'qualified-name';
  const { shown, title } = identifierText(
    value,
    isShortened,
    isQualifiedName ? shortenQualifiedName : undefined,
  );
  const text = isQualifiedName ? (
    <bdi>
      {breakAfterSeparators(shown).map((part, index) => (
        // The parts of one id, in order: the index is their identity.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </bdi>
  ) : (
    <bdi>{shown}</bdi>
  );
  return (
    <span className={classes.root}>
      {href ? (
        <PlainLink className={classes.value} to={href} title={title} data-shape={shape}>
          {text}
        </PlainLink>
      ) : (
        <span className={classes.value} title={title} data-shape={shape}>
          {text}
        </span>
      )}
      <button
        type="button"
        className={classes.copy}
        onClick={() => {
          clipboard.copy(value);
        }}
        aria-label={`Copy ${label}`}
        title={clipboard.copied ? 'Copied' : `Copy ${label}`}
        data-copied={clipboard.copied || undefined}
      >
        <CopyIcon copied={clipboard.copied} />
      </button>
    </span>
  );
}

function CopyIcon({ copied }: { copied: boolean }) {
  return (
    <StrokeIcon>
      {copied ? (
        <path d="M5 12l5 5l10 -10" />
      ) : (
        <>
          <rect x="8" y="8" width="12" height="12" rx="2" />
          <path d="M16 8V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h2" />
        </>
      )}
    </StrokeIcon>
  );
}
