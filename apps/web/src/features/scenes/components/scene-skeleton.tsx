/** The scene page while its account or scenes are read. */
export function SceneSkeleton() {
  return (
    <div className="scene-skeleton" role="status" aria-label="Loading scenes">
      <div className="fl-skeleton" style={{ height: 40, width: 320 }} />
      <div className="scene-skeleton__grid">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="fl-skeleton" style={{ height: 150 }} />
        ))}
      </div>
    </div>
  );
}
