/**
 * The benchmark suite's entry point ({@link org.atomicshards.benchmarks.BenchmarkSuite}), the groups it runs
 * (JMH {@link org.atomicshards.benchmarks.SuiteGroup}s and the probes) and the catalogue of comparisons its result
 * tables show.
 *
 * <h2>The command and what it writes</h2>
 * From the repository's root:
 * <pre>
 * mvn -B -ntp -DskipTests -Pbenchmarks -pl sharding-benchmarks -am verify
 * mvn -B -ntp -DskipTests -Pbenchmarks -pl sharding-benchmarks -am verify -Dbenchmarks.only='merge-limit|routing'
 * mvn -B -ntp -DskipTests -Pbenchmarks -pl sharding-benchmarks -am verify -Dbenchmarks.only='pg-.*'
 * </pre>
 * {@code -Dbenchmarks.only} is a regular expression over the group names (all groups that need nothing installed by
 * default; the {@code pg-} groups, which need the PostgreSQL server of {@code -Dbenchmarks.pg.*}, only when named).
 * The run writes, into the repository's {@code docs/benchmarks/}:
 * <ul>
 *   <li>{@code results.md}: an index of the groups, then one section per group with the run's date, commit (and
 *       whether the work tree had uncommitted changes outside {@code docs/}), CPU model and cores, JDK, OS and load
 *       average at start and end, its charts, and its table: each figure with its 99.9% interval, its ratio to the
 *       baseline measured in the same run with the ratio's interval, the target and whether it was met. A run of some
 *       groups replaces their sections only; the other groups keep theirs, each with its own run and commit;</li>
 *   <li>{@code archive.md}: the sections a run replaced, newest first (without their charts);</li>
 *   <li>{@code <group>.ratios.png} (each ratio with its interval beside its target) and {@code <group>.figures.png}
 *       (figures without a baseline), drawn with XChart, for the groups that have such rows.</li>
 * </ul>
 * These files are committed as documentation. JMH's logs and JSON results and the probes' logs go to
 * {@code sharding-benchmarks/target/benchmarks/} and are not.
 */
package org.atomicshards.benchmarks;
