// A comment that must survive.
#define N 16
float A[N][N], B[N][N], C[N][N];
void f() {
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < N; ++k)
        C[i][j] += A[i][k] * B[k][j]; // trailing comment
}
int main() { f(); return 0; }
