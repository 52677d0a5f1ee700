import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  NumberInput,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useFocusTrap, useMediaQuery, useWindowEvent } from '@mantine/hooks';
import {
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  useTransition,
  type CSSProperties,
  type KeyboardEvent,
} from 'react';
import { StrokeIcon } from '@/components/stroke-icon';
import { formatCount } from '@/lib/text/format';
import { layoutTree } from '@/lib/transaction-tree/layout';
import type { NodeId, TransactionTree } from '@/lib/transaction-tree/model';
import type { TreeKeyAction } from '@/lib/transaction-tree/navigation';
import { searchTree } from '@/lib/transaction-tree/search';
import { FRAME_MAX_SHARE, graphFrameHeight } from '@/lib/transaction-tree/viewport';
import {
  buildVisibleTree,
  collapse,
  collapseToDepth,
  defaultCollapsed,
  expand,
  expandAll,
  reveal,
  toggle,
  type CollapsedSet,
} from '@/lib/transaction-tree/visibility';
import { NodeDetails } from './node-details';
import { createNodeFlagsStore } from './node-flags-store';
import { GRAPH_NODE_HEIGHT, TransactionGraph, type CenterRequest } from './transaction-graph';
import type { TransactionLinks } from './transaction-links';
import { TransactionOutline } from './transaction-outline';
import classes from './transaction-view.module.css';
import { buttonBusy } from '@/components/form/button-busy';

/** Which of outline and graph a narrow screen shows (wide ones show both side by side). */
export type TransactionPane = 'outline' | 'graph';

/** Below Mantine's `md` (62em) the two panes do not fit side by side. */
export const TRANSACTION_TABS_QUERY = '(max-width: 61.99em)';

export type TransactionViewProps = {
  tree: TransactionTree;
  selectedNodeId: number | undefined;
  onSelectNode: (nodeId: number | undefined) => void;
  links: TransactionLinks;
  /** The pane a narrow screen shows; the view keeps its own when the caller does not. */
  pane?: TransactionPane | undefined;
  onPaneChange?: ((pane: TransactionPane) => void) | undefined;
  /**
   * Fill the caller's height (a flex column) on wide screens, the node details in a panel beside
   * the graph; otherwise the panes have a fixed height and the details follow below them.
   */
  fill?: boolean;
  /**
   * Shown over the whole window ("Full screen": the toolbar, outline, graph and details, Escape or
   * "Exit full screen" to leave). The caller may keep it (e.g. in the URL); else the view does.
   */
  isFullScreen?: boolean | undefined;
  onFullScreenChange?: ((isFullScreen: boolean) => void) | undefined;
};

/**
 * A transaction tree as a graph with a synced outline beside it (on narrow screens, one of the two
 * at a time, as tabs), a search, and the selected node's details (beside them when filling the
 * page, else below). The selection belongs to the caller (the viewer keeps it in the URL); folds
 * and the search are this view's own, and start afresh for another transaction.
 */
export function TransactionView(props: TransactionViewProps) {
  return <TreeExplorer key={props.tree.updateId} {...props} />;
}

/** Where a selection came from: that side needs no scrolling to it, the other sides do. */
type SelectionSource = 'graph' | 'outline' | 'other';

function TreeExplorer({
  tree,
  selectedNodeId,
  onSelectNode,
  links,
  pane: paneProp,
  onPaneChange,
  fill = false,
  isFullScreen: isFullScreenProp,
  onFullScreenChange,
}: TransactionViewProps) {
  // Read before the first paint: a phone must not first lay out the two panes side by side.
  const isNarrow = useMediaQuery(TRANSACTION_TABS_QUERY, undefined, {
    getInitialValueInEffect: false,
  });
  const [ownPane, setOwnPane] = useState<TransactionPane>('outline');
  const pane = paneProp ?? ownPane;
  const selected =
    selectedNodeId !== undefined && tree.nodes.has(selectedNodeId) ? selectedNodeId : undefined;
  const [collapsed, setCollapsed] = useState<CollapsedSet>(() =>
    selected === undefined
      ? defaultCollapsed(tree)
      : reveal(tree, defaultCollapsed(tree), selected),
  );
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const search = useMemo(
    () => (deferredQuery.trim() === '' ? null : searchTree(tree, deferredQuery)),
    [tree, deferredQuery],
  );
  const [matchIndex, setMatchIndex] = useState(0);
  const [depth, setDepth] = useState<number | string>(Math.min(2, Math.max(tree.maxDepth, 0)));
  const [fitRequest, setFitRequest] = useState(0);
  const [centerRequest, setCenterRequest] = useState<CenterRequest | undefined>();
  const [scrollRequest, setScrollRequest] = useState<CenterRequest | undefined>();
  // Which pane the latest selection was made in, until the caller hands it back as selectedNodeId.
  const [origin, setOrigin] = useState<{ id: NodeId; source: SelectionSource } | undefined>();
  const [store] = useState(createNodeFlagsStore);
  const [ownFullScreen, setOwnFullScreen] = useState(false);
  const isFullScreen = isFullScreenProp ?? ownFullScreen;
  const setFullScreen = (next: boolean) => {
    setOwnFullScreen(next);
    onFullScreenChange?.(next);
  };
  const windowHeight = useWindowHeight();

  const visible = useMemo(
    () => buildVisibleTree(tree, collapsed, search?.ancestors),
    [tree, collapsed, search],
  );
  const layout = useMemo(() => layoutTree(visible, { nodeHeight: GRAPH_NODE_HEIGHT }), [visible]);

  // A selection made elsewhere (the URL, the details panel, a search step) opens the way to the
  // node and brings it into view in both panes; one made in a pane scrolls only the other.
  const [shownSelection, setShownSelection] = useState<NodeId | undefined>(undefined);
  if (selected !== shownSelection) {
    setShownSelection(selected);
    if (selected !== undefined) {
      const source = origin?.id === selected ? origin.source : 'other';
      // Into the user's own folds, not just past the search's: the node stays shown when the
      // search that found it is cleared.
      setCollapsed((current) => reveal(tree, current, selected));
      // A new object each time: the panes react to the request, not to its value.
      if (source !== 'graph') setCenterRequest({ id: selected });
      if (source !== 'outline') setScrollRequest({ id: selected });
    }
  }

  const currentMatch = search?.matches[Math.min(matchIndex, search.matches.length - 1)];
  useLayoutEffect(() => {
    store.set({
      selected,
      isMatch: search?.isMatch ?? NO_MATCHES,
      currentMatch,
    });
  }, [store, selected, search, currentMatch]);

  const selectFrom = useCallback(
    (source: SelectionSource) => (id: NodeId) => {
      setOrigin({ id, source });
      onSelectNode(id);
    },
    [onSelectNode],
  );
  const selectFromGraph = useMemo(() => selectFrom('graph'), [selectFrom]);
  const selectFromOutline = useMemo(() => selectFrom('outline'), [selectFrom]);
  const selectFromElsewhere = useMemo(() => selectFrom('other'), [selectFrom]);
  // The node the user last folded or unfolded stays put on screen; else the selection does.
  const [anchor, setAnchor] = useState<NodeId | undefined>();
  const handleToggle = useCallback((id: NodeId) => {
    setAnchor(id);
    setCollapsed((current) => toggle(current, id));
  }, []);
  const handleKeyAction = useCallback(
    (action: TreeKeyAction) => {
      switch (action.type) {
        case 'expand':
          setAnchor(action.id);
          setCollapsed((current) => expand(current, action.id));
          break;
        case 'collapse':
          setAnchor(action.id);
          setCollapsed((current) => collapse(current, action.id));
          break;
        case 'focus':
        case 'select':
          // Arrow keys move the selection itself: the details follow the keyboard. The pane the
          // keys went to scrolls (and moves the focus) too.
          setOrigin({ id: action.id, source: 'other' });
          onSelectNode(action.id);
          break;
      }
    },
    [onSelectNode],
  );

  // Folding the whole tree anew may lay out thousands of nodes: as a transition, React renders
  // the outline, the layout and the graph in separate tasks instead of one long one, and the
  // page stays responsive meanwhile (the graph then mounts its nodes in slices).
  const [isRefolding, startRefold] = useTransition();
  const refold = (next: CollapsedSet) => {
    startRefold(() => {
      setAnchor(selected);
      setCollapsed(next);
    });
  };

  const goToMatch = (step: 1 | -1) => {
    if (!search || search.matches.length === 0) return;
    const count = search.matches.length;
    const next = (Math.min(matchIndex, count - 1) + step + count) % count;
    setMatchIndex(next);
    const id = search.matches[next];
    if (id !== undefined) selectFromElsewhere(id);
  };
  const handleSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    goToMatch(event.shiftKey ? -1 : 1);
  };

  const depthValue = typeof depth === 'number' ? depth : Number.parseInt(depth, 10);
  const selectedNode = selected === undefined ? undefined : tree.nodes.get(selected);
  const matchCount = search?.matches.length ?? 0;

  // Side by side at full height only where there is room; phones keep the tabs and their heights.
  const isFilling = (fill || isFullScreen) && !isNarrow;
  // Where the panes are not given the page's height, they are as tall as the laid-out tree needs.
  const paneHeight = isFullScreen
    ? Math.round(windowHeight * FRAME_MAX_SHARE)
    : graphFrameHeight(layout, windowHeight);
  const {
    rootRef: fullScreenRootRef,
    toggleRef: fullScreenToggleRef,
    titleId: fullScreenTitleId,
    dialogProps,
  } = useFullScreen(isFullScreen, () => {
    setFullScreen(false);
  });
  const outline = (
    <TransactionOutline
      fill={isFilling}
      visible={visible}
      store={store}
      selectedNodeId={selected}
      onSelect={selectFromOutline}
      onToggle={handleToggle}
      onKeyAction={handleKeyAction}
      scrollRequest={scrollRequest}
    />
  );
  const graph = (
    <TransactionGraph
      fill={isFilling}
      visible={visible}
      layout={layout}
      store={store}
      onSelect={selectFromGraph}
      onToggle={handleToggle}
      onKeyAction={handleKeyAction}
      centerRequest={centerRequest}
      anchorNodeId={anchor ?? selected}
      fitRequest={fitRequest}
      selectedNodeId={selected}
    />
  );

  const details = selectedNode ? (
    <NodeDetails tree={tree} node={selectedNode} links={links} onSelectNode={selectFromElsewhere} />
  ) : (
    <Text size="sm" c="dimmed">
      Select a node in the graph or the outline to see its details.
    </Text>
  );

  return (
    // A full-screen view is this same element laid over the window (not a portal), so the folds,
    // the search and the graph's view survive entering and leaving it.
    <div
      ref={fullScreenRootRef}
      className={classes.view}
      data-fill={isFilling || undefined}
      data-full-screen={isFullScreen || undefined}
      style={{ '--transaction-pane-height': `${String(paneHeight)}px` } as CSSProperties}
      {...dialogProps}
    >
      {isFullScreen && (
        <Title order={2} size="h4" id={fullScreenTitleId}>
          Transaction at offset {tree.offset}
        </Title>
      )}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search nodes"
          placeholder="Template, choice, contract, party or arg:…"
          title="Template, choice, contract id, party or argument; e.g. choice:split"
          value={query}
          onChange={(event) => {
            setQuery(event.currentTarget.value);
            setMatchIndex(0);
          }}
          onKeyDown={handleSearchKeyDown}
          maxLength={200}
          w={{ base: 220, md: 240, xl: 300 }}
        />
        <Group gap={4} pb={4}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Previous match"
            disabled={matchCount === 0}
            onClick={() => {
              goToMatch(-1);
            }}
          >
            <StrokeIcon>
              <path d="M6 15l6 -6l6 6" />
            </StrokeIcon>
          </ActionIcon>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Next match"
            disabled={matchCount === 0}
            onClick={() => {
              goToMatch(1);
            }}
          >
            <StrokeIcon>
              <path d="M6 9l6 6l6 -6" />
            </StrokeIcon>
          </ActionIcon>
          <Text size="sm" c="dimmed" role="status" miw={90}>
            {search
              ? matchCount === 0
                ? 'No matches'
                : `${String(Math.min(matchIndex, matchCount - 1) + 1)} of ${String(matchCount)}`
              : ''}
          </Text>
        </Group>
        <Group gap="xs" align="flex-end" ml="auto">
          <NumberInput
            label="Depth"
            value={depth}
            onChange={setDepth}
            min={0}
            max={Math.max(tree.maxDepth, 0)}
            w={90}
          />
          <Button
            variant="default"
            disabled={!Number.isInteger(depthValue) || depthValue < 0}
            onClick={() => {
              refold(collapseToDepth(tree, depthValue));
            }}
          >
            Collapse to depth
          </Button>
          <Button
            variant="default"
            loading={buttonBusy(isRefolding)}
            onClick={() => {
              refold(expandAll());
            }}
          >
            Expand all
          </Button>
          {(!isNarrow || pane === 'graph') && (
            <Button
              variant="default"
              onClick={() => {
                setFitRequest((n) => n + 1);
              }}
            >
              Fit view
            </Button>
          )}
          <Button
            ref={fullScreenToggleRef}
            // The focus trap's first stop: the way out.
            data-autofocus={isFullScreen || undefined}
            variant={isFullScreen ? 'filled' : 'default'}
            onClick={() => {
              setFullScreen(!isFullScreen);
            }}
            leftSection={
              <StrokeIcon>
                {isFullScreen ? (
                  <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />
                ) : (
                  <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />
                )}
              </StrokeIcon>
            }
          >
            {isFullScreen ? 'Exit full screen' : 'Full screen'}
          </Button>
        </Group>
      </Group>
      <Group gap="md">
        <Text size="sm" c="dimmed" role="status">
          {formatCount(tree.order.length, 'node', 'nodes')}, {String(visible.order.length)} shown
        </Text>
        {isFilling && !selectedNode && (
          <Text size="sm" c="dimmed">
            Select a node to see its details.
          </Text>
        )}
      </Group>
      {selectedNodeId !== undefined && selected === undefined && (
        // A link to a node this transaction does not have: say so rather than ignore it.
        <Alert color="orange" variant="light" title={`No node ${String(selectedNodeId)} here`}>
          This transaction has nodes{' '}
          {tree.order.length === 0
            ? 'none'
            : `${String(tree.order.reduce((a, b) => Math.min(a, b)))} to ${String(tree.order.reduce((a, b) => Math.max(a, b)))}`}
          ; the link may point at another transaction. Pick a node in the outline or the graph.
        </Alert>
      )}
      {isNarrow ? (
        // Only the chosen pane is mounted: the other would be a hidden React Flow to keep in
        // sync. The selection lives in the caller (the URL) and the pending scroll and centre
        // requests here, so the pane shown next opens at the selected node.
        <Tabs
          value={pane}
          onChange={(value) => {
            if (value !== 'outline' && value !== 'graph') return;
            setOwnPane(value);
            onPaneChange?.(value);
            // The pane opening may last have been shown at another node.
            if (selected === undefined) return;
            if (value === 'graph') setCenterRequest({ id: selected });
            else setScrollRequest({ id: selected });
          }}
          keepMounted={false}
        >
          <Tabs.List mb="sm">
            <Tabs.Tab value="outline">Outline</Tabs.Tab>
            <Tabs.Tab value="graph">Graph</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="outline">{outline}</Tabs.Panel>
          <Tabs.Panel value="graph">{graph}</Tabs.Panel>
        </Tabs>
      ) : (
        <div
          className={classes.panes}
          data-fill={isFilling || undefined}
          data-details={(isFilling && selectedNode !== undefined) || undefined}
        >
          {outline}
          {graph}
          {/* Only with a node to show: until then the graph has the room. */}
          {isFilling && selectedNode && <div className={classes.detailsPanel}>{details}</div>}
        </div>
      )}
      {!isFilling && (
        <Card withBorder padding="lg">
          {details}
        </Card>
      )}
    </div>
  );
}

const NO_MATCHES: ReadonlySet<NodeId> = new Set();

/** The window's inner height, followed as it is resized. */
function useWindowHeight(): number {
  const [height, setHeight] = useState(() => window.innerHeight);
  useWindowEvent('resize', () => {
    setHeight(window.innerHeight);
  });
  return height;
}

/**
 * What the view needs to be a modal dialog while full screen: the dialog's role and name, the
 * focus kept inside (on "Exit full screen" first, which carries `data-autofocus`), Escape to leave, the page behind not
 * scrolling, and the focus back on the "Full screen" button once it is left.
 */
function useFullScreen(isFullScreen: boolean, onExit: () => void) {
  const titleId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const rootRef = useFocusTrap(isFullScreen);
  const wasFullScreen = useRef(isFullScreen);

  useEffect(() => {
    const was = wasFullScreen.current;
    wasFullScreen.current = isFullScreen;
    if (isFullScreen) {
      const root = document.documentElement;
      const overflow = root.style.overflow;
      root.style.overflow = 'hidden';
      return () => {
        root.style.overflow = overflow;
      };
    }
    if (was) toggleRef.current?.focus();
    return undefined;
  }, [isFullScreen]);

  const dialogProps = isFullScreen
    ? {
        role: 'dialog',
        'aria-modal': true,
        'aria-labelledby': titleId,
        onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => {
          if (event.key !== 'Escape' || event.defaultPrevented) return;
          event.preventDefault();
          onExit();
        },
      }
    : {};
  return { rootRef, toggleRef, titleId, dialogProps };
}
