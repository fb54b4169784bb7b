package dev.rmtemu.model.p4.lower;

import dev.rmtemu.model.p4.ast.Declaration;
import dev.rmtemu.model.parse.HeaderField;
import dev.rmtemu.model.parse.HeaderType;

import java.util.ArrayList;
import java.util.List;

/**
 * The program's headers struct (the ingress parser's {@code out H hdr}) as parse-graph
 * header instances: each member of header type is an instance named as the member
 * ({@code hdr.ethernet} is {@code ethernet}), its fields in wire order.
 */
final class Headers {
    record Instance(String name, HeaderType type) {
        /** The width of a field, or -1. */
        int width(String field) {
            int i = type.indexOf(field);
            return i < 0 ? -1 : type.fields().get(i).bits();
        }
    }

    private final List<Instance> instances = new ArrayList<>();

    Headers(Types types, Declaration.StructLike struct) {
        for (Declaration.Field f : struct.fields()) {
            Declaration.StructLike h = types.structLike(f.type());
            if (h == null || h.kind() != Declaration.StructLike.Kind.HEADER) {
                throw new Refusal(f.position(), "member " + f.name() + " of " + struct.name()
                        + ": only headers are supported in the headers struct by the lowering (no stacks, unions or nested structs)");
            }
            List<HeaderField> fields = new ArrayList<>();
            for (Declaration.Field hf : h.fields()) {
                fields.add(new HeaderField(hf.name(), types.width(hf.type())));
            }
            instances.add(new Instance(f.name(), HeaderType.of(h.name(), fields.toArray(new HeaderField[0]))));
        }
    }

    List<Instance> instances() {
        return instances;
    }

    Instance instance(String name) {
        for (Instance i : instances) {
            if (i.name().equals(name)) {
                return i;
            }
        }
        return null;
    }
}
