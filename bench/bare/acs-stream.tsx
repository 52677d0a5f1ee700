/**
 * The active-contracts limit (bench/contracts-bench.ts): the least a page that lists a streamed
 * active contract set needs. It opens the websocket it is handed in `window.__acsRequest` (the
 * console page's path, protocols and request message; the bench also runs it without the console
 * server's batch offer), parses each message with JSON.parse (a batch split first, ADR 034),
 * keeps and counts the contracts, and shows them in a plain-DOM virtualized table (fixed 40 px
 * rows, spacer rows, redrawn at most once per frame) with a status line, both read by the same
 * page probes as the console's page. No React, no Mantine.
 */
import { STREAM_BATCH_PROTOCOL, splitStreamBatch } from '@ledger-console/edge/console-api';

type AcsRequest = { path: string; protocols: string[]; body: string };
type Contract = { contractId: string; createArgument: unknown; createdAt: string };

const ROW_HEIGHT = 40;
const OVERSCAN = 12;
const CELLS = 6;

const request = (window as unknown as { __acsRequest?: AcsRequest }).__acsRequest;
const contracts: Contract[] = [];
let isEnded = false;
let isDrawPending = false;

const root = document.getElementById('root') ?? document.body;
const status = document.createElement('p');
status.setAttribute('role', 'status');
const box = document.createElement('div');
box.style.maxHeight = '70vh';
box.style.overflow = 'auto';
const table = document.createElement('table');
table.setAttribute('aria-label', 'Active contracts');
table.style.tableLayout = 'fixed';
table.style.width = '100%';
table.style.borderCollapse = 'collapse';
const body = document.createElement('tbody');
table.append(body);
box.append(table);
root.append(status, box);

function cellTexts(contract: Contract): string[] {
  const argument = contract.createArgument;
  const values =
    typeof argument === 'object' && argument !== null ? Object.values(argument) : [argument];
  return [
    contract.contractId.slice(0, 12),
    ...values.slice(0, CELLS - 2).map((value) => String(value)),
    contract.createdAt,
  ];
}

function spacer(height: number): HTMLTableRowElement {
  const row = document.createElement('tr');
  const cell = document.createElement('td');
  cell.colSpan = CELLS;
  cell.style.height = `${String(height)}px`;
  cell.style.padding = '0';
  row.append(cell);
  return row;
}

function draw() {
  isDrawPending = false;
  const count = contracts.length;
  status.textContent = isEnded
    ? `${count.toLocaleString('en')} contracts active`
    : `${count.toLocaleString('en')} contracts so far`;
  const first = Math.max(0, Math.floor(box.scrollTop / ROW_HEIGHT) - OVERSCAN);
  const visible = Math.ceil((box.clientHeight || 600) / ROW_HEIGHT) + 2 * OVERSCAN;
  const last = Math.min(count, first + visible);
  const rows: HTMLTableRowElement[] = [];
  if (first > 0) rows.push(spacer(first * ROW_HEIGHT));
  for (let index = first; index < last; index++) {
    const contract = contracts[index];
    if (!contract) continue;
    const row = document.createElement('tr');
    row.setAttribute('aria-rowindex', String(index + 2));
    row.style.height = `${String(ROW_HEIGHT)}px`;
    for (const text of cellTexts(contract)) {
      const cell = document.createElement('td');
      cell.style.whiteSpace = 'nowrap';
      cell.style.overflow = 'hidden';
      cell.textContent = text;
      row.append(cell);
    }
    rows.push(row);
  }
  if (last < count) rows.push(spacer((count - last) * ROW_HEIGHT));
  body.replaceChildren(...rows);
}

function drawNextFrame() {
  if (isDrawPending) return;
  isDrawPending = true;
  requestAnimationFrame(draw);
}

box.addEventListener('scroll', drawNextFrame, { passive: true });

if (request) {
  const url = new URL(request.path, location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url, request.protocols);
  socket.addEventListener('open', () => {
    socket.send(request.body);
  });
  socket.addEventListener('message', (event: MessageEvent) => {
    const data = String(event.data);
    const texts =
      socket.protocol === STREAM_BATCH_PROTOCOL ? (splitStreamBatch(data) ?? []) : [data];
    for (const text of texts) {
      const element = JSON.parse(text) as {
        contractEntry?: { JsActiveContract?: { createdEvent?: Contract } };
      };
      const created = element.contractEntry?.JsActiveContract?.createdEvent;
      if (created) contracts.push(created);
    }
    drawNextFrame();
  });
  socket.addEventListener('close', () => {
    isEnded = true;
    draw();
  });
} else {
  status.textContent = 'No request: the bench hands one over in window.__acsRequest.';
}
