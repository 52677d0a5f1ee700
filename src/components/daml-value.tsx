import { Fragment, type ReactNode } from 'react';
import { PlainLink } from './plain-link';
import { valueToText, type ValueNode } from '@/lib/values/daml-value';
import { identifierText, revealBidiControls, revealControls } from '@/lib/text/display-text';
import { useIdentifierHref, type IdentifierKind } from './identifier-links';
import classes from './daml-value.module.css';
import linkClasses from './value-link.module.css';

export type DamlValueProps = {
  /** A value read by `readDamlValue` (bounded already: this renders all of it). */
  value: ValueNode;
};

/**
 * A Daml value on one line, readably: records as `{field: value}`, variants by constructor, lists
 * in brackets, parties and contract ids shortened and linked to their pages (the app provides the
 * links), numbers and dates as read. Everything is text; nothing from the ledger becomes markup
 * or a link target except through the app's link builders. Each text and id is isolated (`<bdi>`)
 * with its bidi controls shown (ids: every hidden character), so a value cannot reorder the
 * punctuation and fields around it or pass for another.
 */
export function DamlValue({ value }: DamlValueProps) {
  return <Node node={value} />;
}

function IdLink({ kind, value }: { kind: IdentifierKind; value: string }) {
  const href = useIdentifierHref(kind, value);
  const { shown, title } = identifierText(value);
  return href ? (
    <PlainLink className={`${classes.id} ${linkClasses.link}`} to={href} title={title}>
      <bdi>{shown}</bdi>
    </PlainLink>
  ) : (
    <bdi className={classes.id} title={title}>
      {shown}
    </bdi>
  );
}

function Punct({ children }: { children: string }) {
  return <span className={classes.punct}>{children}</span>;
}

function More({ count }: { count: number }) {
  return count > 0 ? <span className={classes.more}>+{count} more</span> : null;
}

/** Items separated by commas, then the "+N more" of what was not read. */
function Joined({ items, more }: { items: ReactNode[]; more: number }) {
  const all = more > 0 ? [...items, <More key="more" count={more} />] : items;
  return (
    <>
      {all.map((item, index) => (
        <Fragment key={index}>
          {index > 0 && <Punct>, </Punct>}
          {item}
        </Fragment>
      ))}
    </>
  );
}

function Node({ node }: { node: ValueNode }): ReactNode {
  switch (node.kind) {
    case 'text':
      return <bdi>{revealBidiControls(node.text)}</bdi>;
    case 'party':
      return <IdLink kind="party" value={node.party} />;
    case 'contract-id':
      return <IdLink kind="contract" value={node.contractId} />;
    case 'number':
      return <span className={classes.number}>{node.text}</span>;
    case 'date':
    case 'timestamp':
      return (
        <time dateTime={node.iso} title={node.iso}>
          {node.text}
        </time>
      );
    case 'bool':
      return <span>{node.value ? 'true' : 'false'}</span>;
    case 'unit':
      return <Punct>()</Punct>;
    case 'none':
      return <span className={classes.more}>None</span>;
    case 'some':
      return (
        <>
          <span className={classes.tag}>Some</span> <Node node={node.value} />
        </>
      );
    case 'enum':
      return <span className={classes.tag}>{node.tag}</span>;
    case 'variant':
      return node.value.kind === 'unit' ? (
        <span className={classes.tag}>{node.tag}</span>
      ) : (
        <>
          <span className={classes.tag}>{node.tag}</span> <Node node={node.value} />
        </>
      );
    case 'record':
      return (
        <>
          <Punct>{'{'}</Punct>
          <Joined
            items={node.fields.map((field) => (
              <Fragment key={field.name}>
                <span className={classes.label}>{field.name}: </span>
                <Node node={field.value} />
              </Fragment>
            ))}
            more={node.more}
          />
          <Punct>{'}'}</Punct>
        </>
      );
    case 'list':
      return (
        <>
          <Punct>[</Punct>
          <Joined
            items={node.items.map((item, index) => (
              <Node key={index} node={item} />
            ))}
            more={node.more}
          />
          <Punct>]</Punct>
        </>
      );
    case 'map':
      return (
        <>
          <Punct>{'{'}</Punct>
          <Joined
            items={node.entries.map((entry, index) => (
              <Fragment key={index}>
                <Node node={entry.key} />
                <Punct> → </Punct>
                <Node node={entry.value} />
              </Fragment>
            ))}
            more={node.more}
          />
          <Punct>{'}'}</Punct>
        </>
      );
    case 'collapsed':
      return (
        <span className={classes.more} title={revealBidiControls(valueToText(node))}>
          ({node.summary})
        </span>
      );
    case 'raw':
      return <bdi className={classes.id}>{revealControls(node.text)}</bdi>;
  }
}
