/**
 * The suite's results: measurements from one run (JMH results and probes), the comparisons the targets are set for,
 * a Markdown table that shows only what was measured, XChart charts, and the writer that merges a run's groups into
 * the results file of the documentation ({@link org.atomicshards.benchmarks.report.ResultsWriter}).
 */
package org.atomicshards.benchmarks.report;
