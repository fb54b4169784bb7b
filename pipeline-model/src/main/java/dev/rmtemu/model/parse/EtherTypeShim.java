package dev.rmtemu.model.parse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A program's own header carried between Ethernet and the rest of the frame, as a
 * measurement shim is on a real network (LossRadar's batch ID, WBMon's sequence number):
 * Ethernet's EtherType names the shim, and the shim's last field, {@value #NEXT_FIELD},
 * names what follows (IPv4, IPv6, a VLAN tag ...), as in an 802.1Q tag. The switch that adds
 * the shim moves Ethernet's EtherType into it; the one that removes it moves it back.
 *
 * @param header    the header instance's name in the parse graph (also the P4 name, e.g. {@code lossradar})
 * @param type      its type: the program's fields then the 16-bit {@value #NEXT_FIELD}, whole bytes
 * @param etherType the EtherType Ethernet carries when the shim follows
 */
public record EtherTypeShim(String header, HeaderType type, int etherType) {
    /** The shim's last field: the EtherType of what follows it. */
    public static final String NEXT_FIELD = "ether_type";
    private static final int ETHER_TYPE_BITS = 16;

    public EtherTypeShim {
        List<HeaderField> fs = type.fields();
        HeaderField last = fs.get(fs.size() - 1);
        if (!last.name().equals(NEXT_FIELD) || last.bits() != ETHER_TYPE_BITS || type.varbit() != null) {
            throw new IllegalArgumentException("shim " + header + ": its type " + type.name() + " must end with a "
                    + ETHER_TYPE_BITS + "-bit " + NEXT_FIELD + " field and have a fixed length");
        }
        if (etherType < 0x0600 || etherType > 0xFFFF) {
            throw new IllegalArgumentException("shim " + header + ": EtherType 0x" + Integer.toHexString(etherType)
                    + " is not an EtherType (0x0600..0xFFFF)");
        }
    }

    /** A shim type: the given fields, then {@value #NEXT_FIELD}. */
    public static HeaderType type(String typeName, HeaderField... fields) {
        HeaderField[] all = Arrays.copyOf(fields, fields.length + 1);
        all[fields.length] = new HeaderField(NEXT_FIELD, ETHER_TYPE_BITS);
        return HeaderType.of(typeName, all);
    }

    /** The shim's {@value #NEXT_FIELD} by its dotted name in the graph. */
    public String nextField() {
        return header + "." + NEXT_FIELD;
    }

    /**
     * The shims a parse graph branches to straight from Ethernet's EtherType: a state that
     * extracts one header of a shim's shape (fixed length, ending with a 16-bit
     * {@value #NEXT_FIELD}; not a VLAN tag), in the graph's branch order. What a router must
     * parse to find the IPv4/IPv6 header under a program's shim.
     */
    public static List<EtherTypeShim> in(ParseGraph g) {
        List<EtherTypeShim> out = new ArrayList<>();
        for (ParseState s : g.states()) {
            if (!s.ops().equals(List.of(new ParseState.Extract(ETHERNET))) || s.keys().size() != 1) {
                continue;
            }
            for (ParseState.Branch br : s.branches()) {
                if (br.sets().size() != 1 || !(br.sets().get(0) instanceof KeySet.Exact e)) {
                    continue;
                }
                EtherTypeShim shim = shimAt(g, br.next(), e.value());
                if (shim != null && !out.contains(shim)) {
                    out.add(shim);
                }
            }
        }
        return out;
    }

    private static final String ETHERNET = "ethernet";

    /** The shim state {@code state} extracts when Ethernet's EtherType is {@code etherType}, or null. */
    private static EtherTypeShim shimAt(ParseGraph g, String state, long etherType) {
        for (ParseState s : g.states()) {
            if (!s.name().equals(state) || s.ops().size() != 1 || !(s.ops().get(0) instanceof ParseState.Extract x)) {
                continue;
            }
            HeaderType t = g.header(x.header()).type();
            List<HeaderField> fs = t.fields();
            HeaderField last = fs.get(fs.size() - 1);
            if (t.equals(StandardHeaders.VLAN_TAG) || t.varbit() != null || !last.name().equals(NEXT_FIELD)
                    || last.bits() != ETHER_TYPE_BITS || etherType < 0x0600 || etherType > 0xFFFF) {
                return null;
            }
            return new EtherTypeShim(x.header(), t, (int) etherType);
        }
        return null;
    }

    /** The parser spec of the default graph with these shims after Ethernet (IPv4 checksum updated as in the default). */
    public static ParserSpec spec(List<EtherTypeShim> shims) {
        return new ParserSpec(DefaultParseGraph.build(shims), DefaultParseGraph.emitOrder(shims),
                List.of(DefaultParseGraph.ipv4Checksum()));
    }
}
