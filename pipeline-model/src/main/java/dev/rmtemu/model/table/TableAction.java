package dev.rmtemu.model.table;

import java.util.ArrayList;
import java.util.List;

/**
 * An action a table's entries can select, as the control plane names it: its id (the
 * block the program runs for it, {@code apply(t).on(id, ...)}), its name and its
 * parameters. The parameters are packed into the entry's action data word, the first
 * parameter in the most significant bits (as a key's fields are), so a program with one
 * parameter reads it as the whole action data.
 */
public record TableAction(int id, String name, List<Param> params) {
    /** One action parameter: its name and width in bits. */
    public record Param(String name, int width) {
        public Param {
            if (width < 1 || width > Long.SIZE) {
                throw new IllegalArgumentException("action parameter " + name + ": width " + width + " outside 1.." + Long.SIZE);
            }
        }
    }

    public TableAction {
        if (id < 0) {
            throw new IllegalArgumentException("action " + name + ": id " + id + " is an index, not negative");
        }
        params = List.copyOf(params);
        List<String> seen = new ArrayList<>();
        for (Param p : params) {
            if (seen.contains(p.name())) {
                throw new IllegalArgumentException("action " + name + ": parameter " + p.name() + " declared twice");
            }
            seen.add(p.name());
        }
        if (dataBits(params) > Long.SIZE) {
            throw new IllegalArgumentException("action " + name + ": parameters of " + dataBits(params) + " bits > " + Long.SIZE);
        }
    }

    /** An action with parameters given as name, width pairs: {@code of(1, "forward", "port", 9)}. */
    public static TableAction of(int id, String name, Object... nameWidthPairs) {
        if (nameWidthPairs.length % 2 != 0) {
            throw new IllegalArgumentException("action " + name + ": parameters come as name, width pairs");
        }
        List<Param> ps = new ArrayList<>();
        for (int i = 0; i < nameWidthPairs.length; i += 2) {
            ps.add(new Param((String) nameWidthPairs[i], (Integer) nameWidthPairs[i + 1]));
        }
        return new TableAction(id, name, ps);
    }

    /** Bits of action data the parameters take. */
    public int dataBits() {
        return dataBits(params);
    }

    private static int dataBits(List<Param> params) {
        int bits = 0;
        for (Param p : params) {
            bits += p.width();
        }
        return bits;
    }

    /** The action data word holding {@code values} (one per parameter, each within its width). */
    public long pack(long[] values) {
        if (values.length != params.size()) {
            throw new IllegalArgumentException("action " + name + " has " + params.size() + " parameters, got " + values.length);
        }
        long data = 0;
        for (int i = 0; i < values.length; i++) {
            int w = params.get(i).width();
            data = w == Long.SIZE ? values[i] : (data << w) | (values[i] & ((1L << w) - 1));
        }
        return data;
    }

    /** The parameter values an action data word holds ({@link #pack}'s inverse). */
    public long[] unpack(long data) {
        long[] values = new long[params.size()];
        long rest = data;
        for (int i = values.length - 1; i >= 0; i--) {
            int w = params.get(i).width();
            values[i] = w == Long.SIZE ? rest : rest & ((1L << w) - 1);
            rest = w == Long.SIZE ? 0 : rest >>> w;
        }
        return values;
    }
}
