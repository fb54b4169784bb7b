package dev.rmtemu.model.parse;

import java.util.List;

/**
 * What a parse graph takes of a target's parser: TCAM rows per state and in all,
 * and PHV bits for the headers' fields and validity bits.
 *
 * @param graph          the graph's name
 * @param states         rows per state, in declaration order
 * @param tcamRows       rows in all
 * @param tcamRowsLimit  the target's rows per parser (or UNLIMITED)
 * @param fieldBits      bits of the headers' fixed fields
 * @param validityBits   one validity bit per header
 */
public record ParserResources(String graph, List<StateRows> states, int tcamRows, int tcamRowsLimit, long fieldBits,
                              int validityBits) {
    public ParserResources {
        states = List.copyOf(states);
    }

    /**
     * One state's rows: {@code split} rows for the hardware states a state wider than
     * the input buffer becomes, {@code varbit} rows for the lengths of a
     * variable-length tail (one dispatch row and one extract row per legal length),
     * and {@code branches} rows for its select (or one for a plain transition).
     */
    public record StateRows(String state, int bytes, int split, int varbit, int branches) {
        public int rows() {
            return split + varbit + branches;
        }
    }

    /** PHV bits the parsed headers take, validity bits included. */
    public long phvBits() {
        return fieldBits + validityBits;
    }
}
