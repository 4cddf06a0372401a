/**
 * The suite's result table: measurements from one run (JMH results and heap probes), the comparisons the issue
 * sets targets for, and a Markdown renderer that shows only what was measured.
 */
package org.atomicshards.benchmarks.report;
