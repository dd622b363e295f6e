/*
 * Prints where libmemcached places keys with MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED (PHP's OPT_LIBKETAMA_COMPATIBLE),
 * as key<TAB>server lines: the source of libmemcached-ketama-names.tsv.
 *
 *   apt-get install libmemcached-dev && cc libmemcached-golden.c -lmemcached -o golden && ./golden > out.tsv
 */
#include <libmemcached/memcached.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    memcached_st *memc = memcached_create(NULL);
    memcached_behavior_set(memc, MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED, 1);
    memcached_server_add(memc, "memcached-0.memcached", 11211);
    memcached_server_add(memc, "memcached-1.memcached", 11211);
    memcached_server_add(memc, "cache-2", 11212);
    memcached_server_add_with_weight(memc, "10.0.0.3", 11213, 2);
    printf("# key\tserver, from libmemcached %s with MEMCACHED_BEHAVIOR_KETAMA_WEIGHTED and the servers\n",
           memcached_lib_version());
    printf("# memcached-0.memcached:11211, memcached-1.memcached:11211, cache-2:11212, 10.0.0.3:11213 weight 2\n");
    char key[64];
    for (int i = 0; i < 500; i++) {
        snprintf(key, sizeof key, i % 2 ? "/api/v1/comments/%d" : "/api/v1/comments/users/%d", i);
        uint32_t index = memcached_generate_hash(memc, key, strlen(key));
        const memcached_instance_st *server = memcached_server_instance_by_position(memc, index);
        printf("%s\t%s:%u\n", key, memcached_server_name(server), (unsigned) memcached_server_port(server));
    }
    memcached_free(memc);
    return 0;
}
