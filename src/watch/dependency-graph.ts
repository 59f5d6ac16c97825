/**
 * Which experiments read which files. Each experiment's entry is replaced wholesale after
 * every load, so an import that was added or removed, or a changed dataset path, is picked up
 * by the next change without any bookkeeping of its own.
 */
export class DependencyGraph {
  private readonly byExperiment = new Map<string, Set<string>>();
  private readonly byFile = new Map<string, Set<string>>();

  /** Replaces what `experiment` depends on. */
  set(experiment: string, files: Iterable<string>): void {
    this.remove(experiment);
    const own = new Set(files);
    this.byExperiment.set(experiment, own);
    for (const file of own) {
      let dependents = this.byFile.get(file);
      if (!dependents) this.byFile.set(file, (dependents = new Set()));
      dependents.add(experiment);
    }
  }

  /** Adds files without forgetting the old ones (a failed load read less than a good one). */
  extend(experiment: string, files: Iterable<string>): void {
    this.set(experiment, [...this.filesOf(experiment), ...files]);
  }

  remove(experiment: string): void {
    const own = this.byExperiment.get(experiment);
    if (!own) return;
    this.byExperiment.delete(experiment);
    for (const file of own) {
      const dependents = this.byFile.get(file);
      dependents?.delete(experiment);
      if (dependents?.size === 0) this.byFile.delete(file);
    }
  }

  filesOf(experiment: string): ReadonlySet<string> {
    return this.byExperiment.get(experiment) ?? new Set();
  }

  /** The experiments that read `file`. */
  dependents(file: string): ReadonlySet<string> {
    return this.byFile.get(file) ?? new Set();
  }

  /** Every file some experiment depends on. */
  files(): string[] {
    return [...this.byFile.keys()];
  }
}
