package dev.rmtemu.model.p4.preprocess;

/**
 * One line as the preprocessor sees it: backslash-newlines spliced and comments replaced by
 * a space. {@code lines[i]} and {@code columns[i]} are the physical line and column of
 * character {@code i}; {@code firstLine} is the physical line it starts on.
 */
record LogicalLine(String text, int[] lines, int[] columns, int firstLine) {
}
