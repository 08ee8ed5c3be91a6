/** Scans picked in the table, across pages: ids, and the last one clicked (a shift-click's anchor). */
export interface Selection {
  ids: ReadonlySet<string>;
  anchor: string | undefined;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: undefined };

/**
 * A checkbox click on `id`: toggles it; with shift, every row between the anchor and it (on this
 * page, in its order) takes the state the clicked row gets.
 */
export function clickRow(selection: Selection, id: string, pageIds: readonly string[], shift: boolean): Selection {
  const ids = new Set(selection.ids);
  const on = !ids.has(id);
  const from = selection.anchor === undefined ? -1 : pageIds.indexOf(selection.anchor);
  const to = pageIds.indexOf(id);
  if (shift && from !== -1 && to !== -1) {
    for (let at = Math.min(from, to); at <= Math.max(from, to); at++) {
      if (on) ids.add(pageIds[at]!);
      else ids.delete(pageIds[at]!);
    }
  } else if (on) ids.add(id);
  else ids.delete(id);
  return { ids, anchor: id };
}

/** The header checkbox: the whole page on, or off when it all was. */
export function clickPage(selection: Selection, pageIds: readonly string[]): Selection {
  const ids = new Set(selection.ids);
  const all = pageIds.length > 0 && pageIds.every((id) => ids.has(id));
  for (const id of pageIds) {
    if (all) ids.delete(id);
    else ids.add(id);
  }
  return { ids, anchor: selection.anchor };
}

/** The header checkbox's look: all, some (mixed) or none of the page. */
export function pageState(selection: Selection, pageIds: readonly string[]): 'all' | 'some' | 'none' {
  const on = pageIds.filter((id) => selection.ids.has(id)).length;
  return on === 0 ? 'none' : on === pageIds.length ? 'all' : 'some';
}
