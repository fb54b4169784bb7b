package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.p4.ast.Expression;
import dev.rmtemu.model.p4.ast.TableProperty;
import dev.rmtemu.model.p4.ast.TypeRef;
import dev.rmtemu.model.program.ProgramBuilder;
import dev.rmtemu.model.register.RegisterArray;
import dev.rmtemu.model.table.MatchTable;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * TNA's {@code DirectRegister<T>([initial_value])} and {@code DirectRegisterAction<T, U>(reg)}:
 * a register with one cell per entry of the table whose {@code registers = reg} property names
 * it (and the miss entry's cell), its action's apply body compiled to the stateful ALU as a
 * RegisterAction's is, run by {@code execute()} (no index) inside an action of that table.
 * The array only exists once its table does, so the control lowers the DirectRegisterActions
 * after its tables ({@link #actions()}).
 */
final class DirectRegisterLowering {
    private final Types types;
    private final ProgramBuilder.ControlBuilder control;
    private final String controlName;
    private final String prefix;
    private final Map<String, Declaration.Instantiation> registerDecls = new TreeMap<>();
    private final Map<String, Declaration.Instantiation> actionDecls = new TreeMap<>();
    /** The bound arrays by the P4 instance name. */
    private final Map<String, RegisterArray> arrays = new TreeMap<>();
    private final Map<String, Declaration.StructLike> pairs = new TreeMap<>();

    DirectRegisterLowering(Types types, ProgramBuilder.ControlBuilder control, String controlName, String prefix) {
        this.types = types;
        this.control = control;
        this.controlName = controlName;
        this.prefix = prefix;
    }

    /** Records a DirectRegister or DirectRegisterAction instance; false for any other extern. */
    boolean declare(Declaration.Instantiation in) {
        String type = Types.named(in.type());
        List<TypeRef> typeArgs = in.type() instanceof TypeRef.Named n ? n.arguments() : List.of();
        if ("DirectRegister".equals(type)) {
            if (typeArgs.size() != 1 || in.arguments().size() > 1) {
                throw new Refusal(in.position(), "DirectRegister " + in.name() + " needs DirectRegister<T>([initial_value])");
            }
            Declaration.StructLike pair = pairOf(in, typeArgs.get(0));
            types.width(pair == null ? typeArgs.get(0) : pair.fields().get(0).type());
            registerDecls.put(in.name(), in);
            return true;
        }
        if ("DirectRegisterAction".equals(type)) {
            if (typeArgs.size() != 2 || in.arguments().size() != 1) {
                throw new Refusal(in.position(), "DirectRegisterAction " + in.name() + " needs DirectRegisterAction<T, U>(direct_register)");
            }
            actionDecls.put(in.name(), in);
            return true;
        }
        return false;
    }

    /** True for a table's {@code registers} property (bound by {@link #bind} once the table exists). */
    static boolean isRegistersProperty(TableProperty.Property p) {
        return p.name().equals("registers");
    }

    /**
     * Binds the DirectRegister a table's {@code registers = r} names to the table: its array has
     * the table's entries (bf-p4c sizes a direct attached table by its match table's entries) and
     * the miss entry's cell.
     */
    RegisterArray bind(TableProperty.Property p, MatchTable table) {
        String name = p.value() instanceof Expression.Name n ? n.name() : "";
        Declaration.Instantiation in = registerDecls.get(name);
        if (in == null) {
            throw new Refusal(p.position(), "table " + table.name() + ": registers must name a DirectRegister of control " + controlName);
        }
        if (arrays.containsKey(name)) {
            throw new Refusal(p.position(), "DirectRegister " + name + " already belongs to table " + arrays.get(name).table().name()
                    + " (a direct register has one table)");
        }
        TypeRef cell = ((TypeRef.Named) in.type()).arguments().get(0);
        Declaration.StructLike pair = pairOf(in, cell);
        int wordBits = types.width(pair == null ? cell : pair.fields().get(0).type());
        long[] initial = in.arguments().isEmpty() ? new long[2] : InitialValues.of(types, "DirectRegister", in, 0, pair);
        RegisterArray r = control.directRegister(prefix + name, wordBits, pair != null, initial[0], initial[1], table);
        arrays.put(name, r);
        if (pair != null) {
            pairs.put(name, pair);
        }
        return r;
    }

    /** The array of the DirectRegister {@code name}, once bound; null otherwise. */
    RegisterArray array(String name) {
        return arrays.get(name);
    }

    /** The pair struct of a bound DirectRegister of two words; null for one word. */
    Declaration.StructLike pair(String name) {
        return pairs.get(name);
    }

    /** The DirectRegisterAction instances, by name (lowered by the control once its tables exist). */
    Map<String, Declaration.Instantiation> actions() {
        return actionDecls;
    }

    /** The DirectRegister a DirectRegisterAction names; refused when it names none of this control's, or an unbound one. */
    String registerOf(Declaration.Instantiation action) {
        Expression reg = action.arguments().get(0).value();
        String name = reg instanceof Expression.Name n ? n.name() : "";
        if (!registerDecls.containsKey(name)) {
            throw new Refusal(action.position(), "DirectRegisterAction " + action.name() + " must name a DirectRegister of control "
                    + controlName);
        }
        return name;
    }

    /** Every DirectRegister belongs to a table (p4c refuses a direct resource no table names). */
    void checkBound() {
        for (Declaration.Instantiation in : registerDecls.values()) {
            if (!arrays.containsKey(in.name())) {
                throw new Refusal(in.position(), "DirectRegister " + in.name() + " is attached to no table (name it in a table's"
                        + " registers property)");
            }
        }
    }

    private Declaration.StructLike pairOf(Declaration.Instantiation in, TypeRef cell) {
        Declaration.StructLike pair = types.structLike(cell);
        if (pair != null && (pair.fields().size() != 2
                || types.width(pair.fields().get(0).type()) != types.width(pair.fields().get(1).type()))) {
            throw new Refusal(in.position(), "DirectRegister " + in.name() + " of " + pair.name()
                    + ": a register cell is one word or a struct of two words of one width (a lo/hi pair)");
        }
        return pair;
    }
}
