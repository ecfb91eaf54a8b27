/* unokit._core.Batch (batch.c): the batched environments' games, stepped and
 * encoded in C. module.c registers the type and lends the uk_game of a
 * _core.Game object. */
#ifndef UNOKIT_BATCH_H
#define UNOKIT_BATCH_H

#include <Python.h>

#include "core.h"

/* module.c: the uk_game inside a unokit._core.Game, or NULL with a TypeError */
uk_game *uk_py_game(PyObject *obj);
/* batch.c: add the Batch type to the module; -1 with an exception on failure */
int uk_batch_register(PyObject *module);

#endif
