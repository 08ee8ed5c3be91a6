export function ScanDetailPage() {
  return <h1>ScanDetail</h1>;
}
