#ifndef CIDN2_SHIM_H
#define CIDN2_SHIM_H
#include <idn2.h>
#endif
