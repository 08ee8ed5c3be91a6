import { useId, type ReactNode } from 'react';

export interface DataTable {
  columns: readonly string[];
  rows: readonly (readonly (string | number)[])[];
}

/**
 * A chart with its title, a one-sentence summary for everyone (screen readers included) and the
 * numbers behind it as a table on demand, since the drawing itself says nothing to assistive tech.
 */
export function ChartFigure({
  title,
  summary,
  table,
  empty,
  children,
}: {
  title: string;
  summary: string;
  table: DataTable;
  /** Shown instead of the chart and table when set. */
  empty?: string | undefined;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <figure className="card chart-figure" aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      <figcaption>{summary}</figcaption>
      {empty ? (
        <p className="state chart-empty">{empty}</p>
      ) : (
        <>
          <div className="chart-plot" aria-hidden="true">
            {children}
          </div>
          <details className="chart-table">
            <summary>Data table</summary>
            <table>
              <caption className="visually-hidden">{title}</caption>
              <thead>
                <tr>
                  {table.columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, index) => (
                  <tr key={index}>
                    {row.map((cell, i) =>
                      i === 0 ? (
                        <th key={i} scope="row">
                          {cell}
                        </th>
                      ) : (
                        <td key={i}>{cell}</td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </figure>
  );
}
