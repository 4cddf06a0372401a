package org.atomicshards.cli.internal;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table: columns padded to their widest cell, numbers right-aligned, two spaces between columns. */
public final class TextTable {

    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(List<String> header) {
        this.header = List.copyOf(header);
    }

    public TextTable(String... header) {
        this(List.of(header));
    }

    public TextTable row(List<?> cells) {
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException("A row of " + cells.size() + " cells in a table of " + header.size() + " columns");
        }
        rows.add(cells.stream().map(cell -> cell == null ? "-" : cell.toString()).toList());
        return this;
    }

    public TextTable row(Object... cells) {
        return row(java.util.Arrays.asList(cells));
    }

    @Override
    public String toString() {
        int[] widths = new int[header.size()];
        boolean[] numeric = new boolean[header.size()];
        for (int c = 0; c < widths.length; c++) {
            widths[c] = header.get(c).length();
            numeric[c] = !rows.isEmpty();
            for (List<String> row : rows) {
                widths[c] = Math.max(widths[c], row.get(c).length());
                numeric[c] &= row.get(c).matches("-|[-+]?[0-9][0-9,.]*%?|inf");
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, header, widths, numeric);
        rows.forEach(row -> line(out, row, widths, numeric));
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths, boolean[] numeric) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < cells.size(); c++) {
            String cell = cells.get(c);
            String padding = " ".repeat(widths[c] - cell.length());
            line.append(numeric[c] ? padding + cell : cell + padding);
            if (c < cells.size() - 1) {
                line.append("  ");
            }
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }
}
