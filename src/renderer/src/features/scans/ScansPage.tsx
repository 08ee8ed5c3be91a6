export function ScansPage() {
  return <h1>Scans</h1>;
}
