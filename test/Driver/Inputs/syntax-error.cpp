void f(double *c) {
  for (int i = 0; i < 4; ++i)
    c[i] = undeclared;
}
