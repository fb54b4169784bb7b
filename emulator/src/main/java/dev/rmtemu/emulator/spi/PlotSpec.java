package dev.rmtemu.emulator.spi;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One figure of a results table, named the way the paper's figure is: which column is x, which
 * columns are y (several share the axes, e.g. an estimate and its truth), which columns tell the
 * lines apart (HashPipe: algorithm and d) and which one splits the figure into panels (HashPipe: k,
 * one chart per value). {@code paperY} names, for each y column in order, the column holding the
 * paper's value for the same row (drawn as marked points), or is empty when the notes give none.
 * An experiment ({@link Experiment#plots()}) or a program's results ({@link ProgramResults#plots()})
 * says what its tables mean; a table no spec names gets no figure (a table in the paper stays a table).
 *
 * @param table  the table's name (the JSON field, snake_case, as {@link CsvTables} names it)
 * @param title  the figure's title (the paper's figure number and what it shows)
 * @param x      the x column; numbers draw a value axis, anything else a category axis in row order
 * @param xName  the x axis's name, with its unit
 * @param logScaleX a logarithmic x axis (memory and rate sweeps that double)
 * @param y      the y columns
 * @param yName  the y axis's name, with its unit
 * @param series the columns whose values name a line (empty: one line per y column)
 * @param panel  the column with one chart per value, or null for one chart
 * @param paperY per y column the column of the paper's value, or empty
 * @param paperPoints the paper's values that are no row of the table (a size the run does not have),
 *                    each for the line of that name, drawn on every panel
 * @param error  null: y against x as lines (a sweep); otherwise x is a truth and y its estimates, drawn as
 *               a scatter with the line y = x (a point on it is exact) and beside it the error of every
 *               estimate against its truth, measured so
 * @param label  on an estimate-against-truth figure, the column naming each point (a flow, a link) in its
 *               tooltip, or null
 */
public record PlotSpec(String table, String title, String x, String xName, boolean logScaleX, List<String> y, String yName,
                       List<String> series, String panel, List<String> paperY, List<PaperPoint> paperPoints,
                       ErrorMeasure error, String label) {
    /** How the error of an estimate against its truth is measured. */
    public enum ErrorMeasure {
        /** (estimate - truth) / truth: rows whose truth is 0 have none and are left out of the error chart. */
        RELATIVE,
        /** estimate - truth, in the quantity's unit (a truth of 0 is common: a false positive). */
        DIFFERENCE
    }

    /** One value the paper gives for line {@code line} (its name as drawn) at {@code x}. */
    public record PaperPoint(String line, BigDecimal x, BigDecimal y) {
    }

    public PlotSpec {
        y = List.copyOf(y);
        series = List.copyOf(series);
        paperY = List.copyOf(paperY);
        paperPoints = List.copyOf(paperPoints);
        if (y.isEmpty()) {
            throw new IllegalArgumentException("plot of '" + table + "' names no y column");
        }
        if (!paperY.isEmpty() && paperY.size() != y.size()) {
            throw new IllegalArgumentException("plot of '" + table + "': one paper column per y column, or none");
        }
        if (error != null && (logScaleX || !paperY.isEmpty() || !paperPoints.isEmpty())) {
            throw new IllegalArgumentException("plot of '" + table + "': an estimate against its truth has linear axes and no paper values");
        }
    }

    /** Whether this figure is estimates against their truth (a scatter with y = x, and their error). */
    public boolean estimateVsTruth() {
        return error != null;
    }

    /**
     * The estimates in columns {@code estimates} against the truth in column {@code truth} of {@code table}:
     * a scatter of each estimate (y) against its truth (x) with the line y = x, and a chart of their error
     * ({@code error}) against the truth. {@code quantity} names what both measure, with its unit
     * ("flow size (packets)"): the axes are "true " and "estimated " + quantity.
     */
    public static PlotSpec estimateVsTruth(String table, String title, String truth, String quantity, ErrorMeasure error,
                                           String... estimates) {
        return new PlotSpec(table, title, truth, "true " + quantity, false, List.of(estimates), "estimated " + quantity,
                List.of(), null, List.of(), List.of(), Objects.requireNonNull(error), null);
    }

    /** {@code y} against {@code x} in {@code table}, one line per y column, one chart. */
    public static PlotSpec of(String table, String title, String x, String xName, String yName, String... y) {
        return new PlotSpec(table, title, x, xName, false, List.of(y), yName, List.of(), null, List.of(), List.of(), null, null);
    }

    /** This figure with a logarithmic x axis. */
    public PlotSpec logX() {
        return new PlotSpec(table, title, x, xName, true, y, yName, series, panel, paperY, paperPoints, error, label);
    }

    /** This figure with one line per combination of these columns' values. */
    public PlotSpec series(String... columns) {
        return new PlotSpec(table, title, x, xName, logScaleX, y, yName, List.of(columns), panel, paperY, paperPoints, error, label);
    }

    /** This figure split into one chart per value of {@code column}. */
    public PlotSpec panel(String column) {
        return new PlotSpec(table, title, x, xName, logScaleX, y, yName, series, column, paperY, paperPoints, error, label);
    }

    /** This estimate-against-truth figure with each point named by its row's {@code column} (in its tooltip). */
    public PlotSpec labelled(String column) {
        if (error == null) {
            throw new IllegalArgumentException("plot of '" + table + "': only an estimate against its truth names its points");
        }
        return new PlotSpec(table, title, x, xName, logScaleX, y, yName, series, panel, paperY, paperPoints, error, column);
    }

    /** This figure with these values of the paper as marked points too. */
    public PlotSpec paperPoints(PaperPoint... points) {
        List<PaperPoint> all = new ArrayList<>(paperPoints);
        all.addAll(List.of(points));
        return new PlotSpec(table, title, x, xName, logScaleX, y, yName, series, panel, paperY, all, error, label);
    }

    /** This figure with the paper's values (one column per y column) as marked points. */
    public PlotSpec paper(String... columns) {
        return new PlotSpec(table, title, x, xName, logScaleX, y, yName, series, panel, List.of(columns), paperPoints, error, label);
    }
}
