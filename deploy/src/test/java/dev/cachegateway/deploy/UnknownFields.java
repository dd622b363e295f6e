package dev.cachegateway.deploy;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Fields of a manifest that its kind does not have. fabric8 keeps a field it does not
 * know in the object's additionalProperties instead of failing, so a misspelt field
 * (imagePullPolcy) would read cleanly, and the API server would reject it or, worse, drop
 * it.
 */
final class UnknownFields {

    private UnknownFields() {
    }

    /**
     * The paths of unknown fields, such as
     * spec.template.spec.containers[0].imagePullPolcy.
     */
    static List<String> in(Object resource) {
        List<String> found = new ArrayList<>();
        walk(resource, "", found);
        return found;
    }

    private static void walk(Object value, String path, List<String> found) {
        if (value instanceof Collection<?> collection) {
            int index = 0;
            for (Object element : collection) {
                walk(element, path + "[" + index++ + "]", found);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, element) -> walk(element, path + "[" + key + "]", found));
            return;
        }
        if (value == null || !value.getClass().getName().startsWith("io.fabric8.")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            String name = getter.getName();
            if (!name.startsWith("get") || getter.getParameterCount() > 0 || Modifier.isStatic(getter.getModifiers())
                    || !walksInto(getter.getReturnType())) {
                continue;
            }
            Object child = invoke(getter, value);
            String prefix = path.isEmpty() ? "" : path + ".";
            if (name.equals("getAdditionalProperties")) {
                ((Map<?, ?>) child).keySet().forEach(key -> found.add(prefix + key));
            }
            else {
                walk(child, prefix + Character.toLowerCase(name.charAt(3)) + name.substring(4), found);
            }
        }
    }

    private static boolean walksInto(Class<?> type) {
        return type.getName().startsWith("io.fabric8.") || Collection.class.isAssignableFrom(type)
                || Map.class.isAssignableFrom(type);
    }

    private static Object invoke(Method getter, Object target) {
        try {
            return getter.invoke(target);
        }
        catch (IllegalAccessException | InvocationTargetException ex) {
            throw new IllegalStateException(getter.toString(), ex);
        }
    }

}
